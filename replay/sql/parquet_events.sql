-- parquet_events: the event log for Parquet export, with each game's system and start month (the partitions).
-- parameters: none
-- output: game_id, seq, type, schema_version, payload (JSON text), recorded_at, hash, system, month
SELECT e.game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash,
       g.system, substr(g.created_at, 1, 7) AS month
FROM events AS e
JOIN games AS g ON g.game_id = e.game_id
WHERE e.seq <= g.last_seq;
