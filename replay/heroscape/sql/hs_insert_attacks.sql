-- hs_insert_attacks: hs_attacks rows (one list per column).
-- parameters: $game_id, $seq, $seat, $height_diff, $special, $wounds, $destroyed, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO hs_attacks (game_id, seq, seat, height_diff, special, wounds, destroyed, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($seat::VARCHAR[]), unnest($height_diff::INTEGER[]), unnest($special::BOOLEAN[]), unnest($wounds::INTEGER[]), unnest($destroyed::BOOLEAN[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
