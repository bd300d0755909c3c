-- proj_clear_elo_history: empty proj_elo_history (every system's) before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_elo_history;
