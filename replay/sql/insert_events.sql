-- insert_events: bulk append of events (column lists zipped row by row).
-- parameters: $game_ids (the streams' ids), $seqs, $types, $schema_versions, $payloads, $recorded_ats, $hashes
-- output: none
INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
SELECT
    unnest($game_ids::VARCHAR[]),
    unnest($seqs::BIGINT[]),
    unnest($types::VARCHAR[]),
    unnest($schema_versions::INTEGER[]),
    unnest($payloads::VARCHAR[]),
    unnest($recorded_ats::VARCHAR[]),
    unnest($hashes::VARCHAR[]);
