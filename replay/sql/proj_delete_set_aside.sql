-- proj_delete_set_aside: forget the given games' failures (they have just been projected).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM proj_set_aside WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
