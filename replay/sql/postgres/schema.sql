-- schema: the migrations ledger of the PostgreSQL store. Safe to run on every start; the tables come from
-- migrations/ (replay/sql/postgres/migrations, numbered like the DuckDB chain but a chain of their own).
-- parameters: none
-- output: none
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
);
