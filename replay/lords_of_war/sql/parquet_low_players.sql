-- parquet_low_players: low_players for Parquet export, with its game's system and start month (the partitions).
-- parameters: none
-- output: every low_players column (but system; ended_at as TIMESTAMP, UTC), system, month
SELECT t.* EXCLUDE (system) REPLACE (CAST(t.ended_at AS TIMESTAMP) AS ended_at), g.system, g.month
FROM low_players AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
