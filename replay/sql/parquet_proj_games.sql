-- parquet_proj_games: proj_games for Parquet export (system and month are the partitions).
-- parameters: none
-- output: every proj_games column; started_at and ended_at as TIMESTAMP (UTC)
SELECT * REPLACE (CAST(started_at AS TIMESTAMP) AS started_at, CAST(ended_at AS TIMESTAMP) AS ended_at)
FROM proj_games;
