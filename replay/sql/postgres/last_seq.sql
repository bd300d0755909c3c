-- last_seq: one stream's last seq (no row if it does not exist).
-- parameters: $game_id (the stream's id)
-- output: last_seq
SELECT last_seq FROM streams WHERE stream_id = $game_id;
