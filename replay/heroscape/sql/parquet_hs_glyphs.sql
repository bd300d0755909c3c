-- parquet_hs_glyphs: hs_glyphs for the Parquet export, with its game's start month.
-- parameters: none
-- output: every hs_glyphs column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM hs_glyphs AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
