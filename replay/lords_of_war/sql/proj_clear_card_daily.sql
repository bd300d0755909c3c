-- proj_clear_card_daily: empty proj_card_daily before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_card_daily;
