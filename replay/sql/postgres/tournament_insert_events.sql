-- tournament_insert_events: a tournament's new events, as arrays.
-- parameters: $tournament_id, $seqs, $types, $payloads (JSON texts), $recorded_at
-- output: none
INSERT INTO tournament_events (tournament_id, seq, type, payload, recorded_at)
SELECT $tournament_id, e.seq, e.type, e.payload, $recorded_at
FROM unnest($seqs::BIGINT[], $types::TEXT[], $payloads::TEXT[]) AS e(seq, type, payload);
