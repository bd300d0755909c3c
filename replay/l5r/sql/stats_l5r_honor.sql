-- stats_l5r_honor: honour curves: each clan's mean family honour at the end of each turn of the game (turn 0: the
-- start), over the seats that reached that turn.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: clan, turn, seats, mean_honor
SELECT h.clan, h.turn, count(*) AS seats, avg(h.honor) AS mean_honor
FROM game_rows('l5r_honor', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS h
GROUP BY h.clan, h.turn
ORDER BY h.clan, h.turn;
