-- proj_clear_games: empty proj_games before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_games;
