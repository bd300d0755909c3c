-- l5r_clear_honor: empty l5r_honor (reproject).
-- parameters: none
-- output: none
DELETE FROM l5r_honor;
