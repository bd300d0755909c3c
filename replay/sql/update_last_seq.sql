-- update_last_seq: move one stream's last seq (the common single-game batch; cheaper than the bulk form).
-- parameters: $game_id, $last_seq
-- output: none
UPDATE games SET last_seq = $last_seq WHERE game_id = $game_id;
