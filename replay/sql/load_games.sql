-- load_games: the writer's view of some games (fills its last_seq cache; metadata for merges).
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, last_seq, metadata
SELECT game_id, last_seq, metadata
FROM games
WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
