-- append: one append, all or nothing, in one round trip (the function warlog_append of migration 001).
-- parameters: $game_id, $expected_seq (NULL: at the end), $key (NULL: none), $types, $schema_versions, $payloads,
--   $hashes (arrays, one element per event), $recorded_at
-- output: status (ok | replayed | conflict | not_found), first_seq, last_seq
SELECT status, first_seq, last_seq
FROM warlog_append($game_id, $expected_seq, $key, $types::TEXT[], $schema_versions::INTEGER[], $payloads::TEXT[],
                   $hashes::TEXT[], $recorded_at);
