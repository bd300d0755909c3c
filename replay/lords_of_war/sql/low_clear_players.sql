-- low_clear_players: empty low_players before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM low_players;
