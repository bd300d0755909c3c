-- low_clear_card_daily: empty low_card_daily before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM low_card_daily;
