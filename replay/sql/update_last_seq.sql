-- update_last_seq: move one stream's last seq (the common single-stream batch; cheaper than the bulk form).
-- parameters: $game_id (the stream's id), $last_seq
-- output: none
UPDATE streams SET last_seq = $last_seq WHERE stream_id = $game_id;
