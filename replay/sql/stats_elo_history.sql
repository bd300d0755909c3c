-- stats_elo_history: one player's rated games from the stored pass, in the rating order.
-- parameters: $system, $player
-- output: game_id, ended_at, player_a, player_b, score_a, before_a, before_b, after_a, after_b
SELECT game_id, ended_at, player_a, player_b, score_a, before_a, before_b, after_a, after_b
FROM proj_elo_history
WHERE system = $system AND (player_a = $player OR player_b = $player)
ORDER BY position;
