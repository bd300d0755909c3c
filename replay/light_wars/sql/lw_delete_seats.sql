-- lw_delete_seats: the seat rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM lw_seats WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
