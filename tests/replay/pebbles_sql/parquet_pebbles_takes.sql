-- parquet_pebbles_takes: pebbles_takes for the Parquet export, with its game's start month.
-- parameters: none
-- output: every pebbles_takes column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM pebbles_takes AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
