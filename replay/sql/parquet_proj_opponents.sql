-- parquet_proj_opponents: proj_opponents for Parquet export, with its game's start month (system and month are the
-- partitions).
-- parameters: none
-- output: every proj_opponents column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM proj_opponents AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
