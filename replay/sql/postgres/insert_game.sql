-- insert_game: a new stream's record, a game's or of another kind; no row back if the id is taken by any stream.
-- parameters: $game_id (the stream's id), $kind, $system, $created_at, $players, $tournament, $metadata (JSON text),
--   $last_seq
-- output: stream_id
INSERT INTO streams (stream_id, kind, system, created_at, players, tournament, metadata, last_seq)
VALUES ($game_id, $kind, $system, $created_at, $players::TEXT[], $tournament, $metadata::JSONB, $last_seq)
ON CONFLICT (stream_id) DO NOTHING
RETURNING stream_id;
