-- applied_migrations: the versions of the PostgreSQL chain already applied.
-- parameters: none
-- output: version
SELECT version FROM schema_migrations;
