-- get_game: one game's record.
-- parameters: $game_id
-- output: game_id, system, created_at, players, tournament, metadata, last_seq
SELECT game_id, system, created_at, players, tournament, metadata, last_seq
FROM games
WHERE game_id = $game_id;
