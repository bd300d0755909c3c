-- 001_initial: games, their event streams, idempotency keys, snapshots, tournaments, and the append function.
-- MULTI-STATEMENT FILE: the one exception to "one statement per file"; run as a whole, inside the migration's
-- transaction, exactly once (recorded in schema_migrations, under an advisory lock: several processes may start
-- together).
-- parameters: none
-- output: none
--
-- Text columns compare byte-wise (COLLATE "C"), as DuckDB's do: paging by (created_at, game_id) gives the same
-- order on both stores. events.payload is text, not jsonb: the stored bytes are what the hash chain covers.
-- games.changed_xid is the id of the last transaction that wrote the game (create, append, metadata): the analytics
-- mirror (replay/analytics/beside.py) copies the games written by transactions at or after the oldest one that was
-- still running at its previous sync (pg_snapshot_xmin), so a transaction committing late is never skipped.

CREATE TABLE games (
    game_id    TEXT COLLATE "C" PRIMARY KEY,
    system     TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    players    TEXT[] NOT NULL,
    tournament TEXT COLLATE "C",
    metadata   JSONB NOT NULL,    -- a JSON object
    last_seq   BIGINT NOT NULL,   -- the stream's last seq; events 1..last_seq must all exist
    changed_xid XID8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX games_by_created ON games (created_at, game_id);
CREATE INDEX games_by_changed ON games (changed_xid, game_id);

CREATE TABLE events (
    game_id        TEXT COLLATE "C" NOT NULL,
    seq            BIGINT NOT NULL,
    type           TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        TEXT NOT NULL,   -- the event's JSON, byte for byte
    recorded_at    TEXT NOT NULL,
    hash           TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)      -- optimistic concurrency: two appends at one seq, one wins
);

CREATE TABLE idempotency_keys (
    game_id   TEXT COLLATE "C" NOT NULL,
    key       TEXT NOT NULL,
    first_seq BIGINT NOT NULL,
    last_seq  BIGINT NOT NULL,
    PRIMARY KEY (game_id, key)
);

CREATE TABLE snapshots (
    game_id TEXT COLLATE "C" NOT NULL,
    seq     BIGINT NOT NULL,
    state   BYTEA NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE tournaments (
    tournament_id TEXT COLLATE "C" PRIMARY KEY,
    created_at    TEXT NOT NULL,
    last_seq      BIGINT NOT NULL
);

CREATE TABLE tournament_events (
    tournament_id TEXT COLLATE "C" NOT NULL,
    seq           BIGINT NOT NULL,
    type          TEXT NOT NULL,
    payload       TEXT NOT NULL,   -- a JSON object
    recorded_at   TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

-- One append in one round trip and one transaction (the caller runs it in autocommit). Optimistic: the last seq
-- is read without a lock and the events inserted after it; an append that raced another one on the same seqs
-- (or the same idempotency key) meets the primary key, its subtransaction is rolled back, and it looks again:
-- with an expected seq it is then a conflict, without one it goes after the winner, with a key seen meanwhile
-- it is the first answer. status: ok | replayed | conflict | not_found; for a conflict last_seq is the current one.
CREATE FUNCTION warlog_append(
    p_game_id TEXT, p_expected BIGINT, p_key TEXT, p_types TEXT[], p_versions INTEGER[], p_payloads TEXT[],
    p_hashes TEXT[], p_recorded_at TEXT, OUT status TEXT, OUT first_seq BIGINT, OUT last_seq BIGINT
) LANGUAGE plpgsql AS $fn$
DECLARE
    current BIGINT;
    n BIGINT := cardinality(p_types);
BEGIN
    LOOP
        IF p_key IS NOT NULL THEN
            SELECT k.first_seq, k.last_seq INTO first_seq, last_seq
            FROM idempotency_keys AS k WHERE k.game_id = p_game_id AND k.key = p_key;
            IF FOUND THEN
                status := 'replayed';
                RETURN;
            END IF;
        END IF;
        SELECT g.last_seq INTO current FROM games AS g WHERE g.game_id = p_game_id;
        IF NOT FOUND THEN
            status := 'not_found';
            RETURN;
        END IF;
        IF p_expected IS NOT NULL AND p_expected <> current THEN
            status := 'conflict';
            last_seq := current;
            RETURN;
        END IF;
        BEGIN
            INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, hash)
            SELECT p_game_id, current + i, p_types[i], p_versions[i], p_payloads[i], p_recorded_at, p_hashes[i]
            FROM generate_subscripts(p_types, 1) AS i;
            IF p_key IS NOT NULL THEN
                INSERT INTO idempotency_keys (game_id, key, first_seq, last_seq)
                VALUES (p_game_id, p_key, current + 1, current + n);
            END IF;
            UPDATE games SET last_seq = current + n, changed_xid = pg_current_xact_id()
            WHERE game_id = p_game_id;
            status := 'ok';
            first_seq := current + 1;
            last_seq := current + n;
            RETURN;
        EXCEPTION WHEN unique_violation THEN
            NULL;  -- another append stored these seqs or this key first: look again
        END;
    END LOOP;
END
$fn$;
