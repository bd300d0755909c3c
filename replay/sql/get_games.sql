-- get_games: the records of some games (the row cache's misses when many games are asked for at once).
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, system, created_at, players, tournament, metadata, last_seq
SELECT game_id, system, created_at, players, tournament, metadata, last_seq
FROM games
WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
