-- proj_elo_clear_players: forget a system's stored Elo players (before the pass is redone from the first game).
-- parameters: $system
-- output: none
DELETE FROM proj_elo_players WHERE system = $system;
