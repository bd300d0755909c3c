-- parquet_proj_kills: proj_kills for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every proj_kills column, system, month
SELECT t.*, g.system, g.month
FROM proj_kills AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
