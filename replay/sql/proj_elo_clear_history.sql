-- proj_elo_clear_history: forget a system's stored Elo history (before the pass is redone from the first game).
-- parameters: $system
-- output: none
DELETE FROM proj_elo_history WHERE system = $system;
