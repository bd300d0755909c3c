-- get_game: one stream's record (a game's, or a stream of another kind: the caller looks at its kind).
-- parameters: $game_id (the stream's id)
-- output: stream_id, system, created_at, players, tournament, metadata, last_seq, kind
SELECT stream_id, system, created_at, players, tournament, metadata, last_seq, kind
FROM streams
WHERE stream_id = $game_id;
