-- parquet_lw_seats: lw_seats for the Parquet export, with its game's start month.
-- parameters: none
-- output: every lw_seats column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM lw_seats AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
