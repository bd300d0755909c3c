-- tournament_insert_events: append a batch of tournament events (parallel lists, one row per index).
-- parameters: $tournament_id, $seqs, $types, $payloads, $recorded_at
-- output: none
INSERT INTO tournament_events (tournament_id, seq, type, payload, recorded_at)
SELECT $tournament_id, unnest($seqs::BIGINT[]), unnest($types::VARCHAR[]), unnest($payloads::VARCHAR[]), $recorded_at;
