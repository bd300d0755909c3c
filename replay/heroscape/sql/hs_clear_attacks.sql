-- hs_clear_attacks: empty hs_attacks (reproject).
-- parameters: none
-- output: none
DELETE FROM hs_attacks;
