-- schema: the migrations ledger. Safe to run on every start; the tables themselves come from migrations/.
-- parameters: none
-- output: none
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       VARCHAR NOT NULL,
    applied_at VARCHAR NOT NULL
);
