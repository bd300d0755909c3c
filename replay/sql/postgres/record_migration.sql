-- record_migration: note a migration as applied (in its own transaction).
-- parameters: $version, $name, $applied_at
-- output: none
INSERT INTO schema_migrations (version, name, applied_at) VALUES ($version, $name, $applied_at);
