-- 016_game_catalogue: the catalogue a game plays (issue 30), a column of `games`: the content id of the catalogue
-- its game_started records (`catalogue_id`), NULL for a game on its system's default catalogue. The id is kept in
-- the game's metadata (key `catalogue`, set by the service from the game's first event when it is created,
-- imported or restored, so every write path and the PostgreSQL log's analytics mirror carry it as they carry the
-- rest of the metadata); the view gives it as a column, for the statistics' `catalogue` filter and `warlog sql`.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none (core_rows's: those of migration 013's, then catalogue_is := a catalogue id, NULL = any)
-- output: none
CREATE OR REPLACE VIEW games AS
SELECT stream_id AS game_id, system, created_at, players, tournament, metadata, last_seq,
       json_extract_string(metadata, '$.catalogue') AS catalogue
FROM streams
WHERE kind = 'game';

-- The core statistics filter by catalogue (`?catalogue=`, `warlog stats --catalogue`): proj_games keeps each
-- game's catalogue (NULL: the default; every game projected before this migration played the default, as no game
-- could play another), and `core_rows` takes `catalogue_is` (NULL = any), keeping the rows of the games on it.
ALTER TABLE proj_games ADD COLUMN catalogue VARCHAR;

CREATE OR REPLACE MACRO core_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is,
                                  ending_is, catalogue_is := NULL)
AS TABLE
SELECT *
FROM stats_rows(tbl, system_is, date_from, date_to, tournament_is, variant_is, rules_version_is) AS c
WHERE (ending_is::VARCHAR = 'all' OR ((c.adjudication IS NULL) = (ending_is::VARCHAR = 'rules')))
    AND (catalogue_is::VARCHAR IS NULL
         OR c.game_id IN (SELECT g.game_id FROM proj_games AS g WHERE g.catalogue = catalogue_is::VARCHAR));
