-- read_events: the game's last seq and its events from_seq..to_seq (up to the last seq), in one snapshot; one row
-- with NULL event columns when there are none; no row when the game does not exist.
-- parameters: $game_id, $from_seq, $to_seq
-- output: last_seq, seq, type, schema_version, payload, recorded_at, hash
SELECT g.last_seq, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM games AS g
LEFT JOIN events AS e
    ON e.game_id = g.game_id AND e.seq >= $from_seq AND e.seq <= least($to_seq, g.last_seq)
WHERE g.game_id = $game_id
ORDER BY e.seq;
