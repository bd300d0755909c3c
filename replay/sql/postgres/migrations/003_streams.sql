-- 003_streams: one event log for every kind of stream, as the DuckDB store's shared migration 014 does. A
-- tournament's log (migration 001's tables `tournaments` and `tournament_events`, a second log beside the games')
-- becomes a stream of kind 'tournament' beside the games' (kind 'game'): one append (warlog_append), one id space,
-- the same expected_seq, idempotency keys and notifications. `games` -> `streams` (game_id -> stream_id, a new column
-- `kind`), `events` -> `stream_events` (game_id -> stream_id); the old names become views of the games alone (the
-- analytics mirror reads them). Each tournament becomes a stream (its system from its tournament_created; no players,
-- no tournament, metadata {}), each of its events an event at the same seq with schema_version 1, its payload the
-- old one with its `type`, no hash. `tournaments` and `tournament_events` stay as views with their old columns for
-- one release. A tournament whose id is also a game's cannot move (one id space): the migration then fails on the
-- primary key and changes nothing.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
ALTER TABLE games ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'game';
ALTER TABLE games RENAME COLUMN game_id TO stream_id;
ALTER TABLE games RENAME TO streams;
ALTER TABLE events RENAME COLUMN game_id TO stream_id;
ALTER TABLE events RENAME TO stream_events;

INSERT INTO streams (stream_id, kind, system, created_at, players, tournament, metadata, last_seq)
SELECT t.tournament_id, 'tournament', coalesce(c.payload::JSONB ->> 'system', ''), t.created_at, '{}'::TEXT[], NULL,
       '{}'::JSONB, t.last_seq
FROM tournaments AS t
LEFT JOIN tournament_events AS c ON c.tournament_id = t.tournament_id AND c.seq = 1;

INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
SELECT tournament_id, seq, type, 1, (payload::JSONB || jsonb_build_object('type', type))::TEXT, recorded_at, ''
FROM tournament_events;

DROP TABLE tournament_events;
DROP TABLE tournaments;

CREATE VIEW games AS
SELECT stream_id AS game_id, system, created_at, players, tournament, metadata, last_seq, changed_xid
FROM streams
WHERE kind = 'game';

CREATE VIEW events AS
SELECT e.stream_id AS game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM stream_events AS e
WHERE EXISTS (SELECT 1 FROM streams AS s WHERE s.stream_id = e.stream_id AND s.kind = 'game');

CREATE VIEW tournaments AS
SELECT stream_id AS tournament_id, created_at, last_seq
FROM streams
WHERE kind = 'tournament';

CREATE VIEW tournament_events AS
SELECT e.stream_id AS tournament_id, e.seq, e.type, (e.payload::JSONB - 'type')::TEXT AS payload, e.recorded_at
FROM stream_events AS e
WHERE EXISTS (SELECT 1 FROM streams AS s WHERE s.stream_id = e.stream_id AND s.kind = 'tournament');

-- warlog_append (migration 001) on the renamed tables: the same function, for a stream of any kind.
CREATE OR REPLACE FUNCTION warlog_append(
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
        SELECT s.last_seq INTO current FROM streams AS s WHERE s.stream_id = p_game_id;
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
            INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
            SELECT p_game_id, current + i, p_types[i], p_versions[i], p_payloads[i], p_recorded_at, p_hashes[i]
            FROM generate_subscripts(p_types, 1) AS i;
            IF p_key IS NOT NULL THEN
                INSERT INTO idempotency_keys (game_id, key, first_seq, last_seq)
                VALUES (p_game_id, p_key, current + 1, current + n);
            END IF;
            UPDATE streams SET last_seq = current + n, changed_xid = pg_current_xact_id()
            WHERE stream_id = p_game_id;
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
