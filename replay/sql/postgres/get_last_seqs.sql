-- get_last_seqs: the last seq of each of these games (absent ids have no row).
-- parameters: $game_ids (TEXT[])
-- output: game_id, last_seq
SELECT game_id, last_seq FROM games WHERE game_id = ANY($game_ids::TEXT[]);
