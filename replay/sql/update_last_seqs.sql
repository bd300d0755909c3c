-- update_last_seqs: move the streams' last seq after an append (same transaction as the events).
-- parameters: $game_ids (VARCHAR[]), $last_seqs (BIGINT[]), zipped pairwise
-- output: none
UPDATE games
SET last_seq = moved.last_seq
FROM (SELECT unnest($game_ids::VARCHAR[]) AS game_id, unnest($last_seqs::BIGINT[]) AS last_seq) AS moved
WHERE games.game_id = moved.game_id;
