-- parquet_events: the games' event log for Parquet export, with each game's system and start month (the partitions).
-- Typed for readers: recorded_at a TIMESTAMP (UTC), payload JSON (Parquet's JSON logical type: an event's fields
-- depend on its type, so one STRUCT would be the union of every type's fields and change as events evolve).
-- parameters: none
-- output: game_id, seq, type, schema_version, payload (JSON), recorded_at (TIMESTAMP, UTC), hash, system, month
SELECT e.stream_id AS game_id, e.seq, e.type, e.schema_version, e.payload::JSON AS payload,
       CAST(e.recorded_at AS TIMESTAMP) AS recorded_at, e.hash,
       g.system, substr(g.created_at, 1, 7) AS month
FROM stream_events AS e
JOIN games AS g ON g.game_id = e.stream_id
WHERE e.seq <= g.last_seq;
