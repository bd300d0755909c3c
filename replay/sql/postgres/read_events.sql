-- read_events: the stream's last seq and its events from_seq..to_seq (up to the last seq), in one snapshot; one row
-- with NULL event columns when there are none; no row when the stream does not exist.
-- parameters: $game_id (the stream's id), $from_seq, $to_seq
-- output: last_seq, seq, type, schema_version, payload, recorded_at, hash
SELECT s.last_seq, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM streams AS s
LEFT JOIN stream_events AS e
    ON e.stream_id = s.stream_id AND e.seq >= $from_seq AND e.seq <= least($to_seq, s.last_seq)
WHERE s.stream_id = $game_id
ORDER BY e.seq;
