-- 005_game_catalogue: the catalogue a game plays (issue 30), a column of `games`, as the DuckDB store's shared
-- migration 016 does: the content id of the catalogue its game_started records, NULL for a game on its system's
-- default catalogue, kept in the game's metadata (key `catalogue`) and given by the view as a column.
-- parameters: none
-- output: none
CREATE OR REPLACE VIEW games AS
SELECT stream_id AS game_id, system, created_at, players, tournament, metadata, last_seq, changed_xid,
       metadata ->> 'catalogue' AS catalogue
FROM streams
WHERE kind = 'game';
