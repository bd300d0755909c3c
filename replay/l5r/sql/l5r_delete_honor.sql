-- l5r_delete_honor: the l5r_honor rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM l5r_honor WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
