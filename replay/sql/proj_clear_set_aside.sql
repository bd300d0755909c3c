-- proj_clear_set_aside: empty proj_set_aside before a full rebuild (warlog reproject tries every game again).
-- parameters: none
-- output: none
DELETE FROM proj_set_aside;
