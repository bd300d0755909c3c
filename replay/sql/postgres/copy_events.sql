-- copy_events: COPY of new games' events (a bulk import), rows written by the store.
-- parameters: none (rows: game_id, seq, type, schema_version, payload, recorded_at, hash)
-- output: none
COPY stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash) FROM STDIN;
