-- parquet_proj_placements: proj_placements for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every proj_placements column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM proj_placements AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
