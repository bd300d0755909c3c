-- last_seq: one game's last seq (no row if it does not exist).
-- parameters: $game_id
-- output: last_seq
SELECT last_seq FROM games WHERE game_id = $game_id;
