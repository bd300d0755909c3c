-- get_games: the records of some streams (the row cache's misses when many are asked for at once).
-- parameters: $game_ids (VARCHAR[]: the streams' ids)
-- output: stream_id, system, created_at, players, tournament, metadata, last_seq, kind
SELECT stream_id, system, created_at, players, tournament, metadata, last_seq, kind
FROM streams
WHERE stream_id IN (SELECT unnest($game_ids::VARCHAR[]));
