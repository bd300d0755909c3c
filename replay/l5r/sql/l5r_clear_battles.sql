-- l5r_clear_battles: empty l5r_battles (reproject).
-- parameters: none
-- output: none
DELETE FROM l5r_battles;
