-- stats_sample: the sample size behind a statistic: finished games passing the filters.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = any; else games where a seat had that army)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: games
SELECT count(*) AS games
FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
WHERE g.finished
    AND ($army::VARCHAR IS NULL OR list_contains(g.armies, $army::VARCHAR));
