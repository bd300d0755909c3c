-- insert_game: a new game's record; no row back if the id is taken.
-- parameters: $game_id, $system, $created_at, $players, $tournament, $metadata (JSON text), $last_seq
-- output: game_id
INSERT INTO games (game_id, system, created_at, players, tournament, metadata, last_seq)
VALUES ($game_id, $system, $created_at, $players::TEXT[], $tournament, $metadata::JSONB, $last_seq)
ON CONFLICT (game_id) DO NOTHING
RETURNING game_id;
