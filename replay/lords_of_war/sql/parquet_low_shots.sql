-- parquet_low_shots: low_shots for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every low_shots column, system, month
SELECT t.*, g.system, g.month
FROM low_shots AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
