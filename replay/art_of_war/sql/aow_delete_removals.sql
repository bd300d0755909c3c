-- aow_delete_removals: the aow_removals rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM aow_removals WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
