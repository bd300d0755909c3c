-- get_game: one game's record.
-- parameters: $game_id
-- output: game_id, system, created_at, players, tournament, metadata (JSON text), last_seq
SELECT game_id, system, created_at, players, tournament, metadata::TEXT, last_seq
FROM games
WHERE game_id = $game_id;
