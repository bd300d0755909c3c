-- 001_light_wars_tables: Light Wars' own projection tables, the first migration of its chain (ledger:
-- system_migrations, chain 'light-wars'; replay/light_wars/analytics.py writes them, docs/light-wars.md). Rows are
-- written once per finished game.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE lw_seats (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,    -- p1 | p2
    army           VARCHAR NOT NULL,    -- the sample army's name, or custom
    composition    VARCHAR NOT NULL,    -- unit types with counts, then +tactic tiles: "king infantry*2 +battle-cry"
    cost           INTEGER NOT NULL,    -- the army's total cost (units and tiles)
    went_first     BOOLEAN NOT NULL,
    result         VARCHAR,             -- win | draw | loss | NULL (ended without a result)
    end_reason     VARCHAR,             -- king | castle | score | concession
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE lw_attacks (
    game_id        VARCHAR NOT NULL,
    attack         INTEGER NOT NULL,    -- 1, 2, ... in the game
    seq            BIGINT NOT NULL,     -- the attack_resolved event
    seat           VARCHAR NOT NULL,    -- the attacking seat
    participants   INTEGER NOT NULL,
    side           VARCHAR NOT NULL,    -- the best side any participant strikes from: rear > side > front
    shooting       BOOLEAN NOT NULL,    -- an archer shot in it
    won            BOOLEAN NOT NULL,    -- the attacking side won
    margin         INTEGER NOT NULL,    -- attacking total minus defending total
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    PRIMARY KEY (game_id, attack)
);
