-- stats_head_to_head: results between pairs of players over the opposing seats of finished games, from the first
-- player's side (in a game of more seats, each pair of opposing seats: won by whoever placed ahead).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $player (NULL = every player), $opponent (NULL = every opponent), $min_games (pairs
--   with fewer games are left out). Without $player each pair appears twice, once from each side.
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: player, opponent, games, wins, losses, draws
SELECT o.player, o.opponent, count(*) AS games, count_if(o.result = 'win') AS wins,
       count_if(o.result = 'loss') AS losses, count_if(o.result = 'draw') AS draws
FROM core_rows('proj_opponents', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS o
WHERE o.finished AND o.result IS NOT NULL
    AND ($player::VARCHAR IS NULL OR o.player = $player::VARCHAR)
    AND ($opponent::VARCHAR IS NULL OR o.opponent = $opponent::VARCHAR)
GROUP BY o.player, o.opponent
HAVING count(*) >= $min_games
ORDER BY o.player, o.opponent;
