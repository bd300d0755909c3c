-- 016_game_catalogue: the catalogue a game plays (issue 30), a column of `games`: the content id of the catalogue
-- its game_started records (`catalogue_id`), NULL for a game on its system's default catalogue. The id is kept in
-- the game's metadata (key `catalogue`, set by the service from the game's first event when it is created,
-- imported or restored, so every write path and the PostgreSQL log's analytics mirror carry it as they carry the
-- rest of the metadata); the view gives it as a column, for the statistics' `catalogue` filter and `warlog sql`.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
CREATE OR REPLACE VIEW games AS
SELECT stream_id AS game_id, system, created_at, players, tournament, metadata, last_seq,
       json_extract_string(metadata, '$.catalogue') AS catalogue
FROM streams
WHERE kind = 'game';
