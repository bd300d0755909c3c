-- 001_heroscape_tables: HeroScape's own projection tables, the first migration of its chain (ledger:
-- system_migrations, chain 'heroscape'; replay/heroscape/analytics.py writes them, docs/heroscape.md). Rows are
-- written once per finished game.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE hs_cards (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    card           VARCHAR NOT NULL,    -- an army card the seat fielded
    survived       BOOLEAN NOT NULL,    -- a figure of it on the map at the end
    result         VARCHAR,             -- win | draw | loss | NULL
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat, card)
);

CREATE TABLE hs_attacks (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,     -- the attack_resolved event
    seat           VARCHAR NOT NULL,    -- the attacking seat
    height_diff    INTEGER NOT NULL,    -- the attacker's level minus the target's
    special        BOOLEAN NOT NULL,
    wounds         INTEGER NOT NULL,
    destroyed      BOOLEAN NOT NULL,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE hs_leaving (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,     -- the move_declared event of a figure leaving engagement
    seat           VARCHAR NOT NULL,    -- the moving seat
    strikers       INTEGER NOT NULL,
    wounds         INTEGER NOT NULL,
    destroyed      BOOLEAN NOT NULL,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE hs_glyphs (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    glyph          VARCHAR NOT NULL,    -- a permanent glyph (R2) the seat held at some round's end
    rounds         INTEGER NOT NULL,    -- at how many round ends it held it
    result         VARCHAR,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat, glyph)
);
