-- proj_elo_set_cursor: move the stored Elo pass's cursor.
-- parameters: $system, $last_ended_at, $last_game_id, $fed_rows, $rated_games
-- output: none
INSERT OR REPLACE INTO proj_elo_cursor (system, last_ended_at, last_game_id, fed_rows, rated_games)
VALUES ($system, $last_ended_at, $last_game_id, $fed_rows, $rated_games);
