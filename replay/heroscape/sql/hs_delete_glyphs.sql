-- hs_delete_glyphs: the hs_glyphs rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM hs_glyphs WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
