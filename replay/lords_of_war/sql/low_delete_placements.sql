-- low_delete_placements: drop the low_placements rows of some games (only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM low_placements WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
