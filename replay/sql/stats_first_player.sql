-- stats_first_player: results of the seat that went first (the game first awaited it in turn 1), overall (army NULL)
-- and by its army.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = any; else games where the first player had that army), $min_games
--   (by-army rows with fewer games are left out; the overall row always stays)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: army (NULL = all), games, wins, losses, draws (never NULL: with no game at all the overall row is still
--   there, and DuckDB's count_if over no rows is NULL, hence the coalesce)
SELECT s.army, count(*) AS games, coalesce(count_if(s.result = 'win'), 0) AS wins,
       coalesce(count_if(s.result = 'loss'), 0) AS losses, coalesce(count_if(s.result = 'draw'), 0) AS draws
FROM core_rows('proj_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS s
WHERE s.finished AND s.result IS NOT NULL AND s.went_first
    AND ($army::VARCHAR IS NULL OR s.army = $army::VARCHAR)
GROUP BY GROUPING SETS ((), (s.army))
HAVING s.army IS NULL OR count(*) >= $min_games
ORDER BY s.army NULLS FIRST;
