-- insert_event: append one event (the common single-event batch; cheaper than the bulk form).
-- parameters: $game_id, $seq, $type, $schema_version, $payload, $recorded_at, $hash
-- output: none
INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, hash)
VALUES ($game_id, $seq, $type, $schema_version, $payload, $recorded_at, $hash);
