-- proj_elo_clear_cursor: forget a system's stored Elo cursor (before the pass is redone from the first game).
-- parameters: $system
-- output: none
DELETE FROM proj_elo_cursor WHERE system = $system;
