-- 010_game_contents: each game's content hash, to find a game already stored whatever its id (replay/contents.py).
-- content_hash = SHA-256 (hex) of the game's events 1..last_seq, each as `type SP schema_version SP payload LF`:
-- the events only, no game id, timestamps or chain hashes, so two stores of the same game have the same one. It is
-- derived from the log (rows are refreshed when a game's last_seq moved on) and safe to empty.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
CREATE TABLE game_contents (
    game_id      VARCHAR PRIMARY KEY,
    content_hash VARCHAR NOT NULL,
    last_seq     BIGINT NOT NULL      -- the game's last_seq when hashed: a row behind games.last_seq is stale
);

CREATE INDEX game_contents_by_hash ON game_contents (content_hash);
