-- 001_lords_of_war_tables: Lords of War's own projection tables, the first migration of its chain (ledger:
-- system_migrations, chain 'lords-of-war'; replay/lords_of_war/analytics.py writes them, docs/statistics.md).
-- These tables were made by the shared chain before the systems had chains of their own (shared migrations 002,
-- 004, 005 and 008), so every database already has them, with its rows: IF NOT EXISTS keeps those as they are. This
-- migration states them as they stand today; the chain's later migrations change them from here.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
CREATE TABLE IF NOT EXISTS proj_players (  -- per seat, with Lords of War's counts (proj_seats has the core's)
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,    -- p1 | p2
    player         VARCHAR NOT NULL,
    army           VARCHAR NOT NULL,    -- army_name: faction, custom:<faction> or mercenary
    opponent       VARCHAR NOT NULL,    -- the opposing seat's player (several: joined by '+')
    opponent_army  VARCHAR NOT NULL,
    went_first     BOOLEAN NOT NULL,
    result         VARCHAR,             -- win | loss | draw | NULL (running, or ended without a result)
    kills          BIGINT NOT NULL,     -- enemy cards this seat destroyed (position kills included)
    commanders     BIGINT NOT NULL,     -- of which commanders (command + general)
    placements     INTEGER NOT NULL,
    recalls        INTEGER NOT NULL,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    ended_at       VARCHAR,
    end_reason     VARCHAR,
    turns          INTEGER NOT NULL,
    finished       BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE IF NOT EXISTS proj_placements (
    game_id        VARCHAR NOT NULL,
    placement      INTEGER NOT NULL,    -- 1, 2, ... in game order (units of a starting position first)
    seq            BIGINT NOT NULL,     -- the placed event (1 for a starting position's units)
    turn           INTEGER NOT NULL,
    seat           VARCHAR NOT NULL,
    army           VARCHAR NOT NULL,
    card           VARCHAR NOT NULL,
    first_of_card  BOOLEAN NOT NULL,    -- the seat's first placement of this card in the game (counts games)
    square         VARCHAR NOT NULL,    -- board square
    own_square     VARCHAR NOT NULL,    -- the same square seen from the owner's edge (p2: rotated 180 degrees)
    challenge      BOOLEAN NOT NULL,
    forced         BOOLEAN NOT NULL,
    basis          VARCHAR NOT NULL,    -- placed.basis, or 'position'
    fate           VARCHAR NOT NULL,    -- destroyed | recalled | on_board (at the end of the game)
    fate_seq       BIGINT,
    fate_turn      INTEGER,
    destroyed_by   VARCHAR,             -- arrow | shot | arrow+shot (destroyed units)
    killers        VARCHAR[],           -- distinct cards that dealt it damage (destroyed units)
    kills          INTEGER NOT NULL,    -- enemy units destroyed with this unit among the attackers
    shot_kills     INTEGER NOT NULL,    -- of which with a shot of this unit among the damage
    shots          INTEGER NOT NULL,    -- shots this unit fired
    shots_killing  INTEGER NOT NULL,    -- shots whose target was destroyed by the elimination they fed
    result         VARCHAR,             -- the seat's result in the game
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    own_faction    BOOLEAN              -- the card is of the placing army's faction
);

CREATE TABLE IF NOT EXISTS proj_kills (
    game_id            VARCHAR NOT NULL,
    seq                BIGINT NOT NULL,  -- the eliminated event
    turn               INTEGER NOT NULL,
    round              INTEGER NOT NULL,
    victim_placement   INTEGER,
    victim_seat        VARCHAR NOT NULL,
    victim_card        VARCHAR NOT NULL,
    attacker_placement INTEGER,
    attacker_seat      VARCHAR NOT NULL,
    attacker_card      VARCHAR NOT NULL,
    kind               VARCHAR NOT NULL, -- arrow | shot
    direction          VARCHAR,
    value              INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS proj_shots (
    game_id            VARCHAR NOT NULL,
    seq                BIGINT NOT NULL,  -- the shot event
    turn               INTEGER NOT NULL,
    seat               VARCHAR NOT NULL,
    shooter_placement  INTEGER,
    shooter_card       VARCHAR NOT NULL,
    target_placement   INTEGER,
    target_card        VARCHAR NOT NULL,
    value              INTEGER NOT NULL,
    killed             BOOLEAN NOT NULL  -- the target was destroyed with this shot among its attackers
);

CREATE TABLE IF NOT EXISTS proj_card_daily (  -- per-card sums by day and filter values (the card statistics)
    system              VARCHAR NOT NULL,
    played_on           DATE NOT NULL,
    tournament          VARCHAR NOT NULL,   -- '' = none
    variant             VARCHAR NOT NULL,
    rules_version       VARCHAR NOT NULL,
    army                VARCHAR NOT NULL,   -- the placing army
    card                VARCHAR NOT NULL,
    won                 BOOLEAN NOT NULL,   -- the placing seat won the game
    placements          BIGINT NOT NULL,
    kills               BIGINT NOT NULL,
    shot_kills          BIGINT NOT NULL,
    shots               BIGINT NOT NULL,
    shots_killing       BIGINT NOT NULL,
    destroyed           BIGINT NOT NULL,
    recalled            BIGINT NOT NULL,
    games_placed        BIGINT NOT NULL,    -- first placements of the card by a seat (= seats that placed it)
    faction_placed      BIGINT NOT NULL,    -- of which by an army of the card's faction
    PRIMARY KEY (system, played_on, tournament, variant, rules_version, army, card, won)
);
