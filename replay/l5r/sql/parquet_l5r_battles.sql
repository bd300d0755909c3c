-- parquet_l5r_battles: l5r_battles for the Parquet export, with its game's start month.
-- parameters: none
-- output: every l5r_battles column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM l5r_battles AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
