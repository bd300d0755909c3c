-- l5r_insert_seats: l5r_seats rows (one list per column).
-- parameters: $game_id, $seat, $deck, $clan, $stronghold, $went_first, $result, $end_reason, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO l5r_seats (game_id, seat, deck, clan, stronghold, went_first, result, end_reason, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($deck::VARCHAR[]), unnest($clan::VARCHAR[]), unnest($stronghold::VARCHAR[]), unnest($went_first::BOOLEAN[]), unnest($result::VARCHAR[]), unnest($end_reason::VARCHAR[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
