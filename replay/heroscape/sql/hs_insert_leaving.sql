-- hs_insert_leaving: hs_leaving rows (one list per column).
-- parameters: $game_id, $seq, $seat, $strikers, $wounds, $destroyed, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO hs_leaving (game_id, seq, seat, strikers, wounds, destroyed, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($seat::VARCHAR[]), unnest($strikers::INTEGER[]), unnest($wounds::INTEGER[]), unnest($destroyed::BOOLEAN[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
