-- stats_head_to_head: results between pairs of players over finished games, from the first player's side.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $player (NULL = every player), $opponent (NULL = every opponent), $min_games (pairs
--   with fewer games are left out). Without $player each pair appears twice, once from each side.
-- output: player, opponent, games, wins, losses, draws
SELECT p.player, p.opponent, count(*) AS games, count_if(p.result = 'win') AS wins,
       count_if(p.result = 'loss') AS losses, count_if(p.result = 'draw') AS draws
FROM stats_rows('proj_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS p
WHERE p.finished AND p.result IS NOT NULL
    AND ($player::VARCHAR IS NULL OR p.player = $player::VARCHAR)
    AND ($opponent::VARCHAR IS NULL OR p.opponent = $opponent::VARCHAR)
GROUP BY p.player, p.opponent
HAVING count(*) >= $min_games
ORDER BY p.player, p.opponent;
