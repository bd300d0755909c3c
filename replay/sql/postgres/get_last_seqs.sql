-- get_last_seqs: the last seq of each of these streams (absent ids have no row).
-- parameters: $game_ids (TEXT[]: the streams' ids)
-- output: stream_id, last_seq
SELECT stream_id, last_seq FROM streams WHERE stream_id = ANY($game_ids::TEXT[]);
