-- proj_clear_kills: empty proj_kills before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_kills;
