-- hs_clear_glyphs: empty hs_glyphs (reproject).
-- parameters: none
-- output: none
DELETE FROM hs_glyphs;
