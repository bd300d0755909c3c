-- 001_initial: games, their event streams, idempotency keys and snapshots.
-- MULTI-STATEMENT FILE: the one exception to "one statement per file"; run as a whole, inside the migration's
-- transaction, exactly once (recorded in schema_migrations).
-- parameters: none
-- output: none
--
-- Text columns hold JSON (events.payload, games.metadata) so analytics SQL can use DuckDB's JSON functions.
-- Timestamps are fixed-width ISO-8601 UTC text, set by the store, ordered as text.
CREATE TABLE games (
    game_id    VARCHAR PRIMARY KEY,
    system     VARCHAR NOT NULL,
    created_at VARCHAR NOT NULL,
    players    VARCHAR[] NOT NULL,
    tournament VARCHAR,
    metadata   VARCHAR NOT NULL,   -- JSON object
    last_seq   BIGINT NOT NULL     -- the stream's last seq; events 1..last_seq must all exist
);

CREATE TABLE events (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,
    type           VARCHAR NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        VARCHAR NOT NULL,   -- the event's JSON
    recorded_at    VARCHAR NOT NULL,
    hash           VARCHAR NOT NULL,
    PRIMARY KEY (game_id, seq)         -- the last line of defence against lost updates
);

CREATE TABLE idempotency_keys (
    game_id   VARCHAR NOT NULL,
    key       VARCHAR NOT NULL,
    first_seq BIGINT NOT NULL,
    last_seq  BIGINT NOT NULL,
    PRIMARY KEY (game_id, key)
);

CREATE TABLE snapshots (
    game_id VARCHAR NOT NULL,
    seq     BIGINT NOT NULL,
    state   BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
