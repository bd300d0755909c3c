-- 019_default_catalogue_rows: the statistics' catalogue filter finds the games played on a system's default
-- catalogue (issue 30). Such a game keeps no catalogue id (proj_games.catalogue NULL: the default is the same as
-- none), so a filter by the default's id found no game. The filter (``Filters.catalogue_param``,
-- replay/analytics/stats.py) now hands the macros ``default:<system>`` for a system's default catalogue, which
-- keeps the games of that system with no catalogue; any other value is a stored catalogue's id, as before.
-- `core_rows` (migration 016) and `game_rows` (migration 018) are redefined with that one change.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none (the macros': as in migrations 016 and 018, catalogue_is := an id or default:<system>, NULL = any)
-- output: none (the macros': every column of tbl)
CREATE OR REPLACE MACRO core_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is,
                                  ending_is, catalogue_is := NULL)
AS TABLE
SELECT *
FROM stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is) AS c
WHERE (ending_is::VARCHAR = 'all' OR ((c.adjudication IS NULL) = (ending_is::VARCHAR = 'rules')))
    AND (catalogue_is::VARCHAR IS NULL
         OR c.game_id IN (SELECT g.game_id FROM proj_games AS g
                          WHERE g.catalogue = catalogue_is::VARCHAR
                             OR (g.catalogue IS NULL AND 'default:' || g.system = catalogue_is::VARCHAR)));

CREATE OR REPLACE MACRO game_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is,
                                  catalogue_is := NULL)
AS TABLE
SELECT *
FROM stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is) AS r
WHERE catalogue_is::VARCHAR IS NULL
    OR r.game_id IN (SELECT g.game_id FROM proj_games AS g
                     WHERE g.catalogue = catalogue_is::VARCHAR
                        OR (g.catalogue IS NULL AND 'default:' || g.system = catalogue_is::VARCHAR));
