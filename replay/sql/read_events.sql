-- read_events: a slice of one stream (of any kind), with its last_seq. No row at all: the stream does not exist;
-- one row with seq NULL: the stream exists but has no event in the slice.
-- parameters: $game_id (the stream's id), $from_seq, $to_seq
-- output: last_seq, seq, type, schema_version, payload, recorded_at, hash
SELECT s.last_seq, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM streams AS s
LEFT JOIN (
    SELECT seq, type, schema_version, payload, recorded_at, hash
    FROM stream_events
    WHERE stream_id = $game_id AND seq >= $from_seq AND seq <= $to_seq
) AS e ON e.seq <= s.last_seq
WHERE s.stream_id = $game_id
ORDER BY e.seq;
