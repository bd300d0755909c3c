-- upsert_snapshots: store snapshots, replacing one at the same (game, seq).
-- parameters: $game_ids (VARCHAR[]), $seqs (BIGINT[]), $states (BLOB[]), zipped row by row
-- output: none
INSERT OR REPLACE INTO snapshots (game_id, seq, state)
SELECT unnest($game_ids::VARCHAR[]), unnest($seqs::BIGINT[]), unnest($states::BLOB[]);
