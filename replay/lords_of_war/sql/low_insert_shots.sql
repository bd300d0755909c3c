-- low_insert_shots: bulk insert of low_shots rows (one list per column, zipped row by row).
-- parameters: $game_id, $seq, $turn, $seat, $shooter_placement, $shooter_card, $target_placement, $target_card, $value, $killed
-- output: none
INSERT INTO low_shots (game_id, seq, turn, seat, shooter_placement, shooter_card, target_placement, target_card, value, killed)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($seq::BIGINT[]),
    unnest($turn::INTEGER[]),
    unnest($seat::VARCHAR[]),
    unnest($shooter_placement::INTEGER[]),
    unnest($shooter_card::VARCHAR[]),
    unnest($target_placement::INTEGER[]),
    unnest($target_card::VARCHAR[]),
    unnest($value::INTEGER[]),
    unnest($killed::BOOLEAN[]);
