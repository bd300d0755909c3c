-- hs_insert_cards: hs_cards rows (one list per column).
-- parameters: $game_id, $seat, $card, $survived, $result, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO hs_cards (game_id, seat, card, survived, result, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($card::VARCHAR[]), unnest($survived::BOOLEAN[]), unnest($result::VARCHAR[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
