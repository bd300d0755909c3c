-- mirror_games_of: the last seq and metadata the analytics mirror holds for each of these games (absent: not
-- mirrored yet).
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, last_seq, metadata, tournament
SELECT game_id, last_seq, metadata, tournament FROM games WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
