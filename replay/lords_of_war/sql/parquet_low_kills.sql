-- parquet_low_kills: low_kills for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every low_kills column, system, month
SELECT t.*, g.system, g.month
FROM low_kills AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
