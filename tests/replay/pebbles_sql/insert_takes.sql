-- insert_takes: pebbles_takes rows (one list per column).
-- parameters: $game_id, $seq, $seat, $count, $system, $rules_version, $variant, $tournament, $played_on, $heap
-- output: none
INSERT INTO pebbles_takes (game_id, seq, seat, count, system, rules_version, variant, tournament, played_on, heap)
SELECT unnest($game_id::VARCHAR[]), unnest($seq::BIGINT[]), unnest($seat::VARCHAR[]), unnest($count::INTEGER[]),
       unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]),
       unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]), unnest($heap::INTEGER[]);
