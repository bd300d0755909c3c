-- parquet_lw_attacks: lw_attacks for the Parquet export, with its game's start month.
-- parameters: none
-- output: every lw_attacks column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM lw_attacks AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
