-- 003_tournaments: tournaments as small event logs (replay/tournaments.py folds them).
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once.
-- parameters: none
-- output: none
CREATE TABLE tournaments (
    tournament_id VARCHAR PRIMARY KEY,
    created_at    VARCHAR NOT NULL,   -- fixed-width ISO-8601 UTC
    last_seq      BIGINT NOT NULL
);

CREATE TABLE tournament_events (
    tournament_id VARCHAR NOT NULL,
    seq           BIGINT NOT NULL,
    type          VARCHAR NOT NULL,
    payload       VARCHAR NOT NULL,   -- JSON object
    recorded_at   VARCHAR NOT NULL,
    PRIMARY KEY (tournament_id, seq)  -- two organisers cannot both append the same seq
);
