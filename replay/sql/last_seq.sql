-- last_seq: the last seq of one game's stream.
-- parameters: $game_id
-- output: last_seq
SELECT last_seq FROM games WHERE game_id = $game_id;
