-- stats_head_to_head: results between pairs of players over finished games, from the first player's side.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $player (NULL = every player), $opponent (NULL = every opponent), $min_games (pairs
--   with fewer games are left out). Without $player each pair appears twice, once from each side.
-- output: player, opponent, games, wins, losses, draws
SELECT p.player, p.opponent, count(*) AS games, count_if(p.result = 'win') AS wins,
       count_if(p.result = 'loss') AS losses, count_if(p.result = 'draw') AS draws
FROM proj_players AS p
WHERE p.finished AND p.result IS NOT NULL
    AND p.system = $system
    AND ($date_from::DATE IS NULL OR p.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR p.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR p.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR p.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR p.rules_version = $rules_version::VARCHAR)
    AND ($player::VARCHAR IS NULL OR p.player = $player::VARCHAR)
    AND ($opponent::VARCHAR IS NULL OR p.opponent = $opponent::VARCHAR)
GROUP BY p.player, p.opponent
HAVING count(*) >= $min_games
ORDER BY p.player, p.opponent;
