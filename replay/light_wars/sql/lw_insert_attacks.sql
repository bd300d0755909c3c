-- lw_insert_attacks: lw_attacks rows (one list per column).
-- parameters: $game_id, $attack, $seq, $seat, $participants, $side, $shooting, $won, $margin, $system,
--   $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO lw_attacks (game_id, attack, seq, seat, participants, side, shooting, won, margin, system, rules_version,
                        variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($attack::INTEGER[]), unnest($seq::BIGINT[]), unnest($seat::VARCHAR[]),
       unnest($participants::INTEGER[]), unnest($side::VARCHAR[]), unnest($shooting::BOOLEAN[]),
       unnest($won::BOOLEAN[]), unnest($margin::INTEGER[]), unnest($system::VARCHAR[]),
       unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]),
       unnest($played_on::DATE[]);
