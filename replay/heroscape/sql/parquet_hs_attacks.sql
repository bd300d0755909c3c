-- parquet_hs_attacks: hs_attacks for the Parquet export, with its game's start month.
-- parameters: none
-- output: every hs_attacks column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM hs_attacks AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
