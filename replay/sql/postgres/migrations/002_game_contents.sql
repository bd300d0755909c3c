-- 002_game_contents: each game's content hash, to find a game already stored whatever its id (replay/log/contents.py),
-- as the DuckDB store's migration 010 does: SHA-256 (hex) of the game's events 1..last_seq, each as
-- `type SP schema_version SP payload LF`. Derived from the log (a row behind games.last_seq is stale and is hashed
-- again) and safe to empty.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
CREATE TABLE game_contents (
    game_id      TEXT COLLATE "C" PRIMARY KEY,
    content_hash TEXT NOT NULL,
    last_seq     BIGINT NOT NULL      -- the game's last_seq when hashed
);

CREATE INDEX game_contents_by_hash ON game_contents (content_hash);
