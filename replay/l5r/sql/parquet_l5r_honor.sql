-- parquet_l5r_honor: l5r_honor for the Parquet export, with its game's start month.
-- parameters: none
-- output: every l5r_honor column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM l5r_honor AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
