-- insert_event: append one event (the common single-event batch; cheaper than the bulk form).
-- parameters: $game_id (the stream's id), $seq, $type, $schema_version, $payload, $recorded_at, $hash
-- output: none
INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
VALUES ($game_id, $seq, $type, $schema_version, $payload, $recorded_at, $hash);
