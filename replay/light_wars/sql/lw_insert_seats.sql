-- lw_insert_seats: lw_seats rows (one list per column).
-- parameters: $game_id, $seat, $army, $composition, $cost, $went_first, $result, $end_reason, $system,
--   $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO lw_seats (game_id, seat, army, composition, cost, went_first, result, end_reason, system, rules_version,
                      variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($army::VARCHAR[]),
       unnest($composition::VARCHAR[]), unnest($cost::INTEGER[]), unnest($went_first::BOOLEAN[]),
       unnest($result::VARCHAR[]), unnest($end_reason::VARCHAR[]), unnest($system::VARCHAR[]),
       unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]),
       unnest($played_on::DATE[]);
