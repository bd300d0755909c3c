-- 001_l5r_tables: L5R's own projection tables, the first migration of its chain (ledger: system_migrations, chain
-- 'l5r'; replay/l5r/analytics.py writes them, docs/l5r.md). Rows are written once per finished game.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE l5r_seats (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    deck           VARCHAR NOT NULL,    -- the sample deck's name, or custom
    clan           VARCHAR NOT NULL,    -- the stronghold's clan
    stronghold     VARCHAR NOT NULL,
    went_first     BOOLEAN NOT NULL,
    result         VARCHAR,             -- win | draw | loss | NULL
    end_reason     VARCHAR,             -- honor | enlightenment | military | concession
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE l5r_duels (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,     -- the duel_resolved event
    challenger     VARCHAR NOT NULL,    -- the challenging seat
    clan           VARCHAR NOT NULL,    -- the challenger's clan
    stat           VARCHAR NOT NULL,    -- chi | force | honor
    difference     INTEGER NOT NULL,    -- the challenger's base minus the challenged's (stat with modifiers)
    focuses        INTEGER NOT NULL,    -- focus cards laid by both
    outcome        VARCHAR NOT NULL,    -- challenger | challenged | tie
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE l5r_battles (
    game_id        VARCHAR NOT NULL,
    seq            BIGINT NOT NULL,     -- the battle_resolved event
    attacker       VARCHAR NOT NULL,
    difference     INTEGER NOT NULL,    -- attacking force minus defending force
    winner         VARCHAR NOT NULL,    -- attacker | defender | tie | none
    province_destroyed BOOLEAN NOT NULL,
    destroyed      INTEGER NOT NULL,    -- cards destroyed
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE l5r_honor (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    clan           VARCHAR NOT NULL,
    turn           INTEGER NOT NULL,    -- the game's turn count at a turn's end (0: the start)
    honor          INTEGER NOT NULL,    -- the seat's family honour then
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat, turn)
);
