-- aow_insert_removals: aow_removals rows (one list per column).
-- parameters: $game_id, $seq, $seat, $unit_type, $result, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO aow_removals (game_id, seq, seat, unit_type, result, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($seat::VARCHAR[]), unnest($unit_type::VARCHAR[]), unnest($result::VARCHAR[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
