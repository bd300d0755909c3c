-- proj_clear_elo_cursor: empty proj_elo_cursor (every system's) before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_elo_cursor;
