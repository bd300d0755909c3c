-- l5r_insert_honor: l5r_honor rows (one list per column).
-- parameters: $game_id, $seat, $clan, $turn, $honor, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO l5r_honor (game_id, seat, clan, turn, honor, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($clan::VARCHAR[]), unnest($turn::INTEGER[]), unnest($honor::INTEGER[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
