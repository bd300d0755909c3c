-- hs_clear_cards: empty hs_cards (reproject).
-- parameters: none
-- output: none
DELETE FROM hs_cards;
