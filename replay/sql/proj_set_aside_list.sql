-- proj_set_aside_list: the games the projector set aside, and why.
-- parameters: none
-- output: game_id, last_seq, error, set_aside_at
SELECT game_id, last_seq, error, set_aside_at
FROM proj_set_aside
ORDER BY game_id;
