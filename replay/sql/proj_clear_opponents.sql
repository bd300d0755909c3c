-- proj_clear_opponents: empty proj_opponents before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_opponents;
