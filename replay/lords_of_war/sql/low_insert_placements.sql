-- low_insert_placements: bulk insert of low_placements rows (one list per column, zipped row by row).
-- parameters: $game_id, $placement, $seq, $turn, $seat, $army, $card, $first_of_card, $square, $own_square, $challenge, $forced, $basis, $fate, $fate_seq, $fate_turn, $destroyed_by, $killers, $kills, $shot_kills, $shots, $shots_killing, $result, $system, $rules_version, $variant, $tournament, $played_on, $own_faction
-- output: none
INSERT INTO low_placements (game_id, placement, seq, turn, seat, army, card, first_of_card, square, own_square, challenge, forced, basis, fate, fate_seq, fate_turn, destroyed_by, killers, kills, shot_kills, shots, shots_killing, result, system, rules_version, variant, tournament, played_on, own_faction)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($placement::INTEGER[]),
    unnest($seq::BIGINT[]),
    unnest($turn::INTEGER[]),
    unnest($seat::VARCHAR[]),
    unnest($army::VARCHAR[]),
    unnest($card::VARCHAR[]),
    unnest($first_of_card::BOOLEAN[]),
    unnest($square::VARCHAR[]),
    unnest($own_square::VARCHAR[]),
    unnest($challenge::BOOLEAN[]),
    unnest($forced::BOOLEAN[]),
    unnest($basis::VARCHAR[]),
    unnest($fate::VARCHAR[]),
    unnest($fate_seq::BIGINT[]),
    unnest($fate_turn::INTEGER[]),
    unnest($destroyed_by::VARCHAR[]),
    unnest($killers::VARCHAR[][]),
    unnest($kills::INTEGER[]),
    unnest($shot_kills::INTEGER[]),
    unnest($shots::INTEGER[]),
    unnest($shots_killing::INTEGER[]),
    unnest($result::VARCHAR[]),
    unnest($system::VARCHAR[]),
    unnest($rules_version::VARCHAR[]),
    unnest($variant::VARCHAR[]),
    unnest($tournament::VARCHAR[]),
    unnest($played_on::DATE[]),
    unnest($own_faction::BOOLEAN[]);
