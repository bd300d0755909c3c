-- mirror_tables: the tables the statistics read, which the analytics leader publishes (every table of the
-- database except the log's own and the ledgers; `games`, `events` and the other views of the log are no tables).
-- parameters: none
-- output: table_name
SELECT table_name
FROM information_schema.tables
WHERE table_catalog = current_database() AND table_schema = 'main' AND table_type = 'BASE TABLE'
  AND table_name NOT IN ('streams', 'stream_events', 'idempotency_keys', 'snapshots', 'game_contents',
                         'schema_migrations', 'system_migrations')
ORDER BY table_name;
