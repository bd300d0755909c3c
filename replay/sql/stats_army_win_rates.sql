-- stats_army_win_rates: win rate of each army over finished games, mirror matches left out.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = every army), $min_games (armies with fewer games are left out)
-- output: army, games, wins, losses, draws   (rates and Wilson intervals are computed by replay/analytics/stats.py)
SELECT p.army, count(*) AS games, count_if(p.result = 'win') AS wins, count_if(p.result = 'loss') AS losses,
       count_if(p.result = 'draw') AS draws
FROM stats_rows('proj_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS p
WHERE p.finished AND p.result IS NOT NULL AND p.army <> p.opponent_army
    AND ($army::VARCHAR IS NULL OR p.army = $army::VARCHAR)
GROUP BY p.army
HAVING count(*) >= $min_games
ORDER BY p.army;
