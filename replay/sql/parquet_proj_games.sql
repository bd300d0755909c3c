-- parquet_proj_games: proj_games for Parquet export (system and month are the partitions).
-- parameters: none
-- output: every proj_games column
SELECT * FROM proj_games;
