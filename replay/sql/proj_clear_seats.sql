-- proj_clear_seats: empty proj_seats before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_seats;
