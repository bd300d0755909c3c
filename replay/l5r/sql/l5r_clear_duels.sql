-- l5r_clear_duels: empty l5r_duels (reproject).
-- parameters: none
-- output: none
DELETE FROM l5r_duels;
