-- low_delete_shots: drop the low_shots rows of some games (only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM low_shots WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
