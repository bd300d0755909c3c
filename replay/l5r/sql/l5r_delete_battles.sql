-- l5r_delete_battles: the l5r_battles rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM l5r_battles WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
