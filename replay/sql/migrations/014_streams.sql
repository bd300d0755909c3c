-- 014_streams: one event log for every kind of stream. A tournament's log (migration 003's own tables, a second
-- log beside the games') becomes a stream of the store, kind 'tournament', beside the games' streams (kind 'game'):
-- one append path, one id space, the same expected_seq, idempotency keys and commit notifications.
-- `games` -> `streams` (column game_id -> stream_id, a new column `kind`), `events` -> `stream_events` (game_id ->
-- stream_id); their old names become views of the games alone, so the projections, the Parquet export and
-- `warlog sql` read games as before. Each row of `tournaments` becomes a stream (its system from its
-- tournament_created; no players, no tournament, metadata {}), each row of `tournament_events` an event at the
-- same seq with schema_version 1 (replay.tournaments.model.fold reads every shape the old log wrote), its payload
-- the old one with its `type` (as every event's payload carries it) and no hash (tournament streams are not
-- hash-chained).
-- `tournaments` and `tournament_events` stay as views with their old columns for one release (CHANGELOG).
-- A tournament whose id is also a game's cannot move (one id space): the migration then fails on the primary key
-- and changes nothing (no such database is known: tournament ids are t-xxxxxxxx, game ids have no '-').
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
ALTER TABLE games ADD COLUMN kind VARCHAR DEFAULT 'game';
ALTER TABLE games RENAME COLUMN game_id TO stream_id;
ALTER TABLE games RENAME TO streams;
ALTER TABLE events RENAME COLUMN game_id TO stream_id;
ALTER TABLE events RENAME TO stream_events;

INSERT INTO streams (stream_id, kind, system, created_at, players, tournament, metadata, last_seq)
SELECT t.tournament_id, 'tournament', coalesce(json_extract_string(c.payload, '$.system'), ''), t.created_at,
       []::VARCHAR[], NULL, '{}', t.last_seq
FROM tournaments AS t
LEFT JOIN tournament_events AS c ON c.tournament_id = t.tournament_id AND c.seq = 1;

INSERT INTO stream_events (stream_id, seq, type, schema_version, payload, recorded_at, hash)
SELECT tournament_id, seq, type, 1, json_merge_patch(payload, json_object('type', type))::VARCHAR, recorded_at, ''
FROM tournament_events;

DROP TABLE tournament_events;
DROP TABLE tournaments;

CREATE VIEW games AS
SELECT stream_id AS game_id, system, created_at, players, tournament, metadata, last_seq
FROM streams
WHERE kind = 'game';

CREATE VIEW events AS
SELECT e.stream_id AS game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM stream_events AS e
WHERE e.stream_id IN (SELECT s.stream_id FROM streams AS s WHERE s.kind = 'game');

CREATE VIEW tournaments AS
SELECT stream_id AS tournament_id, created_at, last_seq
FROM streams
WHERE kind = 'tournament';

CREATE VIEW tournament_events AS
SELECT e.stream_id AS tournament_id, e.seq, e.type, json_merge_patch(e.payload, '{"type": null}')::VARCHAR AS payload,
       e.recorded_at
FROM stream_events AS e
WHERE e.stream_id IN (SELECT s.stream_id FROM streams AS s WHERE s.kind = 'tournament');
