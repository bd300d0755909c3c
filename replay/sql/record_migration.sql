-- record_migration: note a migration as applied (in the migration's own transaction).
-- parameters: $version, $name, $applied_at
-- output: none
INSERT INTO schema_migrations (version, name, applied_at) VALUES ($version, $name, $applied_at);
