-- aow_clear_removals: empty aow_removals (reproject).
-- parameters: none
-- output: none
DELETE FROM aow_removals;
