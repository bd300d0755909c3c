-- l5r_delete_seats: the l5r_seats rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM l5r_seats WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
