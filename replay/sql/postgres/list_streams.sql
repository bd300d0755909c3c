-- list_streams: a page of the streams of one kind in (created_at, stream_id) order after a cursor.
-- parameters: $kind, $after_created_at, $after_stream_id ('' '': from the start), $limit
-- output: stream_id, system, created_at, players, tournament, metadata (JSON text), last_seq, kind
SELECT stream_id, system, created_at, players, tournament, metadata::TEXT, last_seq, kind
FROM streams
WHERE kind = $kind
  AND (created_at > $after_created_at::TEXT
       OR (created_at = $after_created_at::TEXT AND stream_id > $after_stream_id::TEXT))
ORDER BY created_at, stream_id
LIMIT $limit;
