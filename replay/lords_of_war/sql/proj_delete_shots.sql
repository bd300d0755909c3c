-- proj_delete_shots: drop the proj_shots rows of some games (only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM proj_shots WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
