-- stats_l5r_victories: victory types by clan: the winners' clans and how they won.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: clan, end_reason, wins
SELECT s.clan, s.end_reason, count(*) AS wins
FROM game_rows('l5r_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS s
WHERE s.result = 'win'
GROUP BY s.clan, s.end_reason
ORDER BY s.clan, wins DESC, s.end_reason;
