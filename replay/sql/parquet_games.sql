-- parquet_games: the store's game records for Parquet export (system and start month are the partitions).
-- parameters: none
-- output: game_id, created_at, players, tournament, metadata (JSON text), last_seq, system, month
SELECT g.game_id, g.created_at, g.players, g.tournament, g.metadata, g.last_seq, g.system,
       substr(g.created_at, 1, 7) AS month
FROM games AS g;
