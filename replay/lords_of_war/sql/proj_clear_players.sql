-- proj_clear_players: empty proj_players before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_players;
