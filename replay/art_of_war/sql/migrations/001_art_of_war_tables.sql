-- 001_art_of_war_tables: Art of War's own projection tables, the first migration of its chain (ledger:
-- system_migrations, chain 'art-of-war'; replay/art_of_war/analytics.py writes them, docs/art-of-war.md). Rows are
-- written once per finished game.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE aow_seats (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    deck           VARCHAR NOT NULL,    -- the sample deck's name, or custom
    king           VARCHAR NOT NULL,
    went_first     BOOLEAN NOT NULL,
    result         VARCHAR,             -- win | draw | loss | NULL
    end_reason     VARCHAR,             -- execution | nation_building | end_of_war | annihilation | concession
    soldiers       INTEGER NOT NULL,    -- the kingdom at the end, by type
    archers        INTEGER NOT NULL,
    priests        INTEGER NOT NULL,
    guardians      INTEGER NOT NULL,
    wizards        INTEGER NOT NULL,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE aow_removals (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,     -- the damaged event that removed the unit
    seat           VARCHAR NOT NULL,    -- the seat that removed it
    unit_type      VARCHAR NOT NULL,    -- soldier | archer | priest | guardian | wizard | king
    result         VARCHAR NOT NULL,    -- captured | destroyed
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);
