-- insert_events: events of one stream, as arrays (one element per event), numbered from $first_seq.
-- parameters: $game_id (the stream's id), $first_seq, $types, $schema_versions, $payloads, $hashes, $recorded_at
-- output: none
INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
SELECT $game_id, $first_seq + e.n - 1, e.type, e.schema_version, e.payload, $recorded_at, e.hash
FROM unnest($types::TEXT[], $schema_versions::INTEGER[], $payloads::TEXT[], $hashes::TEXT[])
    WITH ORDINALITY AS e(type, schema_version, payload, hash, n);
