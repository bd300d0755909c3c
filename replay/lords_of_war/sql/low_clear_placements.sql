-- low_clear_placements: empty low_placements before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM low_placements;
