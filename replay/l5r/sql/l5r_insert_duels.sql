-- l5r_insert_duels: l5r_duels rows (one list per column).
-- parameters: $game_id, $seq, $challenger, $clan, $stat, $difference, $focuses, $outcome, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO l5r_duels (game_id, seq, challenger, clan, stat, difference, focuses, outcome, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($challenger::VARCHAR[]), unnest($clan::VARCHAR[]), unnest($stat::VARCHAR[]), unnest($difference::INTEGER[]), unnest($focuses::INTEGER[]), unnest($outcome::VARCHAR[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
