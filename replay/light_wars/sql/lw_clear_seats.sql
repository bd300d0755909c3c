-- lw_clear_seats: empty lw_seats (reproject).
-- parameters: none
-- output: none
DELETE FROM lw_seats;
