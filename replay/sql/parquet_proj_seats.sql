-- parquet_proj_seats: proj_seats for Parquet export, with its game's start month (system and month are the partitions).
-- parameters: none
-- output: every proj_seats column (but system; ended_at as TIMESTAMP, UTC), system, month
SELECT t.* EXCLUDE (system) REPLACE (CAST(t.ended_at AS TIMESTAMP) AS ended_at), g.system, g.month
FROM proj_seats AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
