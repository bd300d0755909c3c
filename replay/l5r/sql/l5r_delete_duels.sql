-- l5r_delete_duels: the l5r_duels rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM l5r_duels WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
