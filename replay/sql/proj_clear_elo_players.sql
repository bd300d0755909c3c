-- proj_clear_elo_players: empty proj_elo_players (every system's) before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_elo_players;
