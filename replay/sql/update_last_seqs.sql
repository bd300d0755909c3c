-- update_last_seqs: move the streams' last seq after an append (same transaction as the events).
-- parameters: $game_ids (VARCHAR[]: the streams' ids), $last_seqs (BIGINT[]), zipped pairwise
-- output: none
UPDATE streams
SET last_seq = moved.last_seq
FROM (SELECT unnest($game_ids::VARCHAR[]) AS stream_id, unnest($last_seqs::BIGINT[]) AS last_seq) AS moved
WHERE streams.stream_id = moved.stream_id;
