-- 013_adjudicated_games: games the scorekeeper ended by `adjudicate` (issue 28; engine/adjudication.py) are counted
-- apart. The core's tables get `adjudication`, the adjudication's reason (time | agreement | stalled | judge; NULL for
-- a game decided by its rules or still running; `end_reason` is then `adjudicated`), and the core statistics select
-- through `core_rows(tbl, ..., ending_is)`: `stats_rows` (migration 007) narrowed to `rules` (games not
-- adjudicated: the statistics' default), `adjudicated` or `all`. Every row written before has NULL: no game was
-- adjudicated before this migration.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none (the macro's: those of stats_rows, then ending_is: rules | adjudicated | all)
-- output: none (the macro's: every column of tbl, a core table: proj_games, proj_seats, proj_opponents)
ALTER TABLE proj_games ADD COLUMN adjudication VARCHAR;
ALTER TABLE proj_seats ADD COLUMN adjudication VARCHAR;
ALTER TABLE proj_opponents ADD COLUMN adjudication VARCHAR;

CREATE OR REPLACE MACRO core_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is,
                                  ending_is)
AS TABLE
SELECT *
FROM stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is) AS c
WHERE ending_is::VARCHAR = 'all' OR ((c.adjudication IS NULL) = (ending_is::VARCHAR = 'rules'));
