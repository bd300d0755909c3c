-- parquet_low_placements: low_placements for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every low_placements column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM low_placements AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
