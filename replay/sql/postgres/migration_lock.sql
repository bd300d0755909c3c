-- migration_lock: wait for the migration lock of this database, held to the end of the transaction (processes
-- starting together apply each migration once). Keyed by the schema: stores in other schemas do not wait.
-- parameters: none
-- output: pg_advisory_xact_lock
SELECT pg_advisory_xact_lock(190001, hashtext(current_schema()));
