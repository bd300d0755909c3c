-- 001_pebbles_takes: the test-only system pebbles' own projection table (tests/replay/pebbles_stats.py): one row per
-- take of a finished game, with the statistics' filter columns.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE pebbles_takes (
    game_id       VARCHAR NOT NULL,
    seq           BIGINT NOT NULL,
    seat          VARCHAR NOT NULL,
    count         INTEGER NOT NULL,
    system        VARCHAR NOT NULL,
    rules_version VARCHAR,
    variant       VARCHAR,
    tournament    VARCHAR,
    played_on     DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);
