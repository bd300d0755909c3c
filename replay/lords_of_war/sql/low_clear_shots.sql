-- low_clear_shots: empty low_shots before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM low_shots;
