-- aow_clear_seats: empty aow_seats (reproject).
-- parameters: none
-- output: none
DELETE FROM aow_seats;
