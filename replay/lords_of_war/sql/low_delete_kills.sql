-- low_delete_kills: drop the low_kills rows of some games (only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
DELETE FROM low_kills WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
