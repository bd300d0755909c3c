-- stats_end_reasons: how finished games ended.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else games where a seat had that army)
-- output: end_reason, games
SELECT g.end_reason, count(*) AS games
FROM stats_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS g
WHERE g.finished
    AND ($army::VARCHAR IS NULL OR list_contains(g.armies, $army::VARCHAR))
GROUP BY g.end_reason
ORDER BY g.end_reason;
