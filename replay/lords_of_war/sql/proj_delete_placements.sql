-- proj_delete_placements: drop the proj_placements rows of some games (only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM proj_placements WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
