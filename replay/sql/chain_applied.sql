-- chain_applied: the versions of one system's migration chain already applied.
-- parameters: $chain
-- output: version
SELECT version FROM system_migrations WHERE chain = $chain ORDER BY version;
