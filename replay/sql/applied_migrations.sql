-- applied_migrations: the versions already applied.
-- parameters: none
-- output: version
SELECT version FROM schema_migrations ORDER BY version;
