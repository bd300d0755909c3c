-- low_clear_kills: empty low_kills before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM low_kills;
