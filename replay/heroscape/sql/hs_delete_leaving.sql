-- hs_delete_leaving: the hs_leaving rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM hs_leaving WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
