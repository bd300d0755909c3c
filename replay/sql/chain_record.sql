-- chain_record: note a migration of a system's chain as applied (in the migration's own transaction).
-- parameters: $chain, $version, $name, $applied_at
-- output: none
INSERT INTO system_migrations (chain, version, name, applied_at) VALUES ($chain, $version, $name, $applied_at);
