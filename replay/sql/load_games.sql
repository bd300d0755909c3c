-- load_games: the writer's view of some streams of any kind (fills its last_seq cache; metadata for merges).
-- parameters: $game_ids (VARCHAR[]: the streams' ids)
-- output: stream_id, last_seq, metadata
SELECT stream_id, last_seq, metadata
FROM streams
WHERE stream_id IN (SELECT unnest($game_ids::VARCHAR[]));
