-- list_streams: one page of the streams of one kind ordered by (created_at, stream_id), after a cursor position.
-- parameters: $kind, $after_created_at, $after_stream_id ('' = from the start), $limit (the caller asks one more row
--             than the page to know whether another page follows)
-- output: stream_id, system, created_at, players, tournament, metadata, last_seq, kind
SELECT stream_id, system, created_at, players, tournament, metadata, last_seq, kind
FROM streams
WHERE kind = $kind
  AND (created_at > $after_created_at OR (created_at = $after_created_at AND stream_id > $after_stream_id))
ORDER BY created_at, stream_id
LIMIT $limit;
