-- parquet_hs_cards: hs_cards for the Parquet export, with its game's start month.
-- parameters: none
-- output: every hs_cards column (but system), system, month
SELECT t.* EXCLUDE (system), g.system, g.month
FROM hs_cards AS t
JOIN proj_games AS g ON g.game_id = t.game_id;
