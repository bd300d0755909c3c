-- stats_matchups: army-vs-army matrix over finished games, from the row army's side (mirrors included).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = all; else rows or columns with that army), $min_games (cells with fewer
--   games are left out)
-- output: army, opponent_army, games, wins, losses, draws
SELECT p.army, p.opponent_army, count(*) AS games, count_if(p.result = 'win') AS wins,
       count_if(p.result = 'loss') AS losses, count_if(p.result = 'draw') AS draws
FROM stats_rows('proj_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS p
WHERE p.finished AND p.result IS NOT NULL
    AND ($army::VARCHAR IS NULL OR p.army = $army::VARCHAR OR p.opponent_army = $army::VARCHAR)
GROUP BY p.army, p.opponent_army
HAVING count(*) >= $min_games
ORDER BY p.army, p.opponent_army;
