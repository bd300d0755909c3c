-- proj_elo_cursor: where the stored Elo pass of a system stands.
-- parameters: $system
-- output: last_ended_at, last_game_id, fed_rows, rated_games
SELECT last_ended_at, last_game_id, fed_rows, rated_games FROM proj_elo_cursor WHERE system = $system;
