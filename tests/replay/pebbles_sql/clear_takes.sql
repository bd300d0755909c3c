-- clear_takes: empty pebbles_takes (reproject).
-- parameters: none
-- output: none
DELETE FROM pebbles_takes;
