-- proj_clear_placements: empty proj_placements before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_placements;
