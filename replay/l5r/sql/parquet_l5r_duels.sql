-- parquet_l5r_duels: l5r_duels for the Parquet export, with its game's start month.
-- parameters: none
-- output: every l5r_duels column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM l5r_duels AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
