-- stats_game_length: how many finished games lasted each number of turns (the challenge is turn 0).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else games where either side had that army)
-- output: turns, games
SELECT g.turns, count(*) AS games
FROM proj_games AS g
WHERE g.finished
    AND g.system = $system
    AND ($date_from::DATE IS NULL OR g.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR g.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR g.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR g.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR g.rules_version = $rules_version::VARCHAR)
    AND ($army::VARCHAR IS NULL OR g.army_p1 = $army::VARCHAR OR g.army_p2 = $army::VARCHAR)
GROUP BY g.turns
ORDER BY g.turns;
