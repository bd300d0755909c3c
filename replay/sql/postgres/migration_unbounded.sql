-- migration_unbounded: the migrations' transaction is not bound by the statement timeout, which bounds serving
-- statements: waiting for another process's migration lock, or a migration on a large table, takes longer.
-- parameters: none
-- output: none
SET LOCAL statement_timeout = 0;
