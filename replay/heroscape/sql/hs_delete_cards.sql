-- hs_delete_cards: the hs_cards rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM hs_cards WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
