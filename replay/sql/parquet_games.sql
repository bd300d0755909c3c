-- parquet_games: the store's game records for Parquet export (system and start month are the partitions).
-- metadata without token_hashes (access control, nothing to analyse).
-- parameters: none
-- output: game_id, created_at (TIMESTAMP, UTC), players, tournament, metadata (JSON), last_seq, system, month
SELECT g.game_id, CAST(g.created_at AS TIMESTAMP) AS created_at, g.players, g.tournament,
       json_merge_patch(g.metadata, '{"token_hashes": null}')::JSON AS metadata, g.last_seq, g.system,
       substr(g.created_at, 1, 7) AS month
FROM games AS g;
