-- low_insert_kills: bulk insert of low_kills rows (one list per column, zipped row by row).
-- parameters: $game_id, $seq, $turn, $round, $victim_placement, $victim_seat, $victim_card, $attacker_placement, $attacker_seat, $attacker_card, $kind, $direction, $value
-- output: none
INSERT INTO low_kills (game_id, seq, turn, round, victim_placement, victim_seat, victim_card, attacker_placement, attacker_seat, attacker_card, kind, direction, value)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($seq::BIGINT[]),
    unnest($turn::INTEGER[]),
    unnest($round::INTEGER[]),
    unnest($victim_placement::INTEGER[]),
    unnest($victim_seat::VARCHAR[]),
    unnest($victim_card::VARCHAR[]),
    unnest($attacker_placement::INTEGER[]),
    unnest($attacker_seat::VARCHAR[]),
    unnest($attacker_card::VARCHAR[]),
    unnest($kind::VARCHAR[]),
    unnest($direction::VARCHAR[]),
    unnest($value::INTEGER[]);
