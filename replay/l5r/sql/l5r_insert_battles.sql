-- l5r_insert_battles: l5r_battles rows (one list per column).
-- parameters: $game_id, $seq, $attacker, $difference, $winner, $province_destroyed, $destroyed, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO l5r_battles (game_id, seq, attacker, difference, winner, province_destroyed, destroyed, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($attacker::VARCHAR[]), unnest($difference::INTEGER[]), unnest($winner::VARCHAR[]), unnest($province_destroyed::BOOLEAN[]), unnest($destroyed::INTEGER[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
