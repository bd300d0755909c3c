-- proj_clear_shots: empty proj_shots before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_shots;
