-- 007_stats_filter: the statistics' common game filter, held once. `stats_rows(tbl, ...)` is the rows of the
-- projection table named `tbl` (proj_games, proj_players, proj_placements, proj_card_daily: each has the filter
-- columns system, played_on, tournament, variant, rules_version) that pass the filters; every stats_*.sql selects
-- from it with its $-parameters, e.g. `FROM stats_rows('proj_players', $system, $date_from, $date_to, $tournament,
-- $variant, $rules_version) AS p`. DuckDB expands the macro into the statement, so the filters are pushed into the
-- scan as if written inline. Parameters are named *_is where a column has the same name.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none (the macro's: tbl, system_is, date_from, date_to (DATE, inclusive, on the day the game started),
--   tournament_is, variant_is, rules_version_is; each but tbl and system_is NULL = any)
-- output: none (the macro's: every column of tbl)
CREATE OR REPLACE MACRO stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is)
AS TABLE
SELECT *
FROM query_table(tbl) AS r
WHERE r.system = system_is
    AND (date_from::DATE IS NULL OR r.played_on >= date_from::DATE)
    AND (date_to::DATE IS NULL OR r.played_on <= date_to::DATE)
    AND (tournament_is::VARCHAR IS NULL OR r.tournament = tournament_is::VARCHAR)
    AND (variant_is::VARCHAR IS NULL OR r.variant = variant_is::VARCHAR)
    AND (rules_version_is::VARCHAR IS NULL OR r.rules_version = rules_version_is::VARCHAR);
