-- stats_end_reasons: how finished games ended.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else games where either side had that army)
-- output: end_reason, games
SELECT g.end_reason, count(*) AS games
FROM proj_games AS g
WHERE g.finished
    AND g.system = $system
    AND ($date_from::DATE IS NULL OR g.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR g.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR g.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR g.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR g.rules_version = $rules_version::VARCHAR)
    AND ($army::VARCHAR IS NULL OR g.army_p1 = $army::VARCHAR OR g.army_p2 = $army::VARCHAR)
GROUP BY g.end_reason
ORDER BY g.end_reason;
