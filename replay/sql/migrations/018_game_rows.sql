-- 018_game_rows: the systems' own statistics filter by catalogue (issue 30). `game_rows(tbl, ...)` is `stats_rows`
-- (migration 007) of a projection table with a `game_id` column, narrowed to the games played on catalogue
-- `catalogue_is` (its id, as proj_games.catalogue keeps it since migration 016; NULL = any game). A system's
-- stats_*.sql selects from it with its $-parameters and `catalogue_is := $catalogue`, as the core's statistics
-- select from `core_rows`. No table changes: a database made before answers every statistic as it did, and the
-- same filtered by catalogue (its games projected before migration 016 played the default, proj_games's NULL).
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none (the macro's: those of stats_rows, then catalogue_is := a catalogue id, NULL = any)
-- output: none (the macro's: every column of tbl)
CREATE OR REPLACE MACRO game_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is,
                                  catalogue_is := NULL)
AS TABLE
SELECT *
FROM stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is) AS r
WHERE catalogue_is::VARCHAR IS NULL
    OR r.game_id IN (SELECT g.game_id FROM proj_games AS g WHERE g.catalogue = catalogue_is::VARCHAR);
