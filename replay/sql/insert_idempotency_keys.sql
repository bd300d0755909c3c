-- insert_idempotency_keys: remember the first answer of each keyed append (same transaction as its events).
-- parameters: $game_ids, $keys, $first_seqs, $last_seqs (zipped row by row)
-- output: none
INSERT INTO idempotency_keys (game_id, key, first_seq, last_seq)
SELECT
    unnest($game_ids::VARCHAR[]),
    unnest($keys::VARCHAR[]),
    unnest($first_seqs::BIGINT[]),
    unnest($last_seqs::BIGINT[]);
