-- hs_delete_attacks: the hs_attacks rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM hs_attacks WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
