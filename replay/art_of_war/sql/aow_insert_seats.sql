-- aow_insert_seats: aow_seats rows (one list per column).
-- parameters: $game_id, $seat, $deck, $king, $went_first, $result, $end_reason, $soldiers, $archers, $priests, $guardians, $wizards, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO aow_seats (game_id, seat, deck, king, went_first, result, end_reason, soldiers, archers, priests, guardians, wizards, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($deck::VARCHAR[]), unnest($king::VARCHAR[]), unnest($went_first::BOOLEAN[]), unnest($result::VARCHAR[]), unnest($end_reason::VARCHAR[]), unnest($soldiers::INTEGER[]), unnest($archers::INTEGER[]), unnest($priests::INTEGER[]), unnest($guardians::INTEGER[]), unnest($wizards::INTEGER[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
