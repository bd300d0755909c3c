-- hs_clear_leaving: empty hs_leaving (reproject).
-- parameters: none
-- output: none
DELETE FROM hs_leaving;
