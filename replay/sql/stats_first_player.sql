-- stats_first_player: results of the seat that took turn 1, overall (army NULL) and by its army.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else games where the first player had that army), $min_games
--   (by-army rows with fewer games are left out; the overall row always stays)
-- output: army (NULL = all), games, wins, losses, draws
SELECT p.army, count(*) AS games, count_if(p.result = 'win') AS wins, count_if(p.result = 'loss') AS losses,
       count_if(p.result = 'draw') AS draws
FROM stats_rows('proj_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS p
WHERE p.finished AND p.result IS NOT NULL AND p.went_first
    AND ($army::VARCHAR IS NULL OR p.army = $army::VARCHAR)
GROUP BY GROUPING SETS ((), (p.army))
HAVING p.army IS NULL OR count(*) >= $min_games
ORDER BY p.army NULLS FIRST;
