-- aow_delete_seats: the aow_seats rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM aow_seats WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
