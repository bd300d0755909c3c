-- l5r_clear_seats: empty l5r_seats (reproject).
-- parameters: none
-- output: none
DELETE FROM l5r_seats;
