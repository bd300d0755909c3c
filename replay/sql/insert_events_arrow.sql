-- insert_events_arrow: bulk import of events from an Arrow table the caller registered as `bulk_events`
-- (columns game_id, seq, type, schema_version, payload, hash); every row gets the same recorded_at.
-- parameters: $recorded_at
-- output: none
INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
SELECT game_id, seq, type, schema_version, payload, $recorded_at, hash
FROM bulk_events;
