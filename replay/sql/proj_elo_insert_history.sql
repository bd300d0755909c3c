-- proj_elo_insert_history: append rated games to the stored Elo history (one list per column).
-- parameters: $system, $position, $game_id, $ended_at, $player_a, $player_b, $score_a, $before_a, $before_b,
--   $after_a, $after_b
-- output: none
INSERT INTO proj_elo_history (system, position, game_id, ended_at, player_a, player_b, score_a, before_a, before_b,
                              after_a, after_b)
SELECT $system, unnest($position::BIGINT[]), unnest($game_id::VARCHAR[]), unnest($ended_at::VARCHAR[]),
       unnest($player_a::VARCHAR[]), unnest($player_b::VARCHAR[]), unnest($score_a::TINYINT[]),
       unnest($before_a::DOUBLE[]), unnest($before_b::DOUBLE[]), unnest($after_a::DOUBLE[]), unnest($after_b::DOUBLE[]);
