-- mirror_tables: the tables the statistics read, which the analytics leader publishes (every table of the
-- database except the log's own and the ledgers).
-- parameters: none
-- output: table_name
SELECT table_name
FROM information_schema.tables
WHERE table_catalog = current_database() AND table_schema = 'main' AND table_type = 'BASE TABLE'
  AND table_name NOT IN ('games', 'events', 'idempotency_keys', 'snapshots', 'game_contents', 'tournaments',
                         'tournament_events', 'schema_migrations', 'system_migrations')
ORDER BY table_name;
