-- stats_lw_armies: results by army composition and total cost, over the seats of finished games.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any), $army,
--   $min_games
-- output: composition, cost, seats, wins, draws, losses
SELECT s.composition, s.cost, count(*) AS seats,
       count(*) FILTER (WHERE s.result = 'win') AS wins,
       count(*) FILTER (WHERE s.result = 'draw') AS draws,
       count(*) FILTER (WHERE s.result = 'loss') AS losses
FROM game_rows('lw_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS s
WHERE $army::VARCHAR IS NULL OR s.army = $army::VARCHAR
GROUP BY s.composition, s.cost
HAVING count(*) >= $min_games
ORDER BY seats DESC, s.composition, s.cost;
