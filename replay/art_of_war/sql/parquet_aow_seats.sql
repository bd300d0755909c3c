-- parquet_aow_seats: aow_seats for the Parquet export, with its game's start month.
-- parameters: none
-- output: every aow_seats column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM aow_seats AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
