-- 002_projections: read models derived from the event log (replay/projections.py, docs/statistics.md).
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
--
-- Every proj_* row is a pure function of one game's events (plus its games record: dates, tournament, round).
-- proj_checkpoint is written in the SAME transaction as the rows, so each event is projected exactly once, also
-- after a crash; `warlog reproject` empties these tables and rebuilds them from the log.
-- Per-game tables (proj_games, proj_players) are kept for running games too and replaced as events arrive; the
-- fact tables (proj_placements, proj_kills, proj_shots) are written once, in the transaction that projects the
-- game's `game_ended`, so they are insert-only. Filter columns are copied into proj_players and proj_placements
-- so that the statistics scan one table.
CREATE TABLE proj_checkpoint (
    game_id       VARCHAR PRIMARY KEY,
    last_seq      BIGINT NOT NULL,      -- events 1..last_seq of the game are projected
    facts_written BOOLEAN NOT NULL,     -- the fact tables hold this (finished) game's rows
    projected_at  VARCHAR NOT NULL
);

CREATE TABLE proj_games (
    game_id        VARCHAR PRIMARY KEY,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    mode           VARCHAR,             -- sealed | table
    variant        VARCHAR,             -- label: standard | intermediate | unbounded | targets-K-C, joined by '+'
    intermediate   BOOLEAN,
    unbounded      BOOLEAN,
    kill_target    INTEGER,
    command_target INTEGER,
    tournament     VARCHAR,
    round          INTEGER,             -- metadata.round when the game was recorded in a tournament round
    started_at     VARCHAR NOT NULL,    -- games.created_at (ISO-8601 UTC)
    ended_at       VARCHAR,             -- recorded_at of game_ended
    played_on      DATE NOT NULL,       -- date of started_at: what the date filters compare
    month          VARCHAR NOT NULL,    -- 'YYYY-MM' of started_at: the Parquet partition
    player_p1      VARCHAR,
    player_p2      VARCHAR,
    army_p1        VARCHAR,
    army_p2        VARCHAR,
    first_player   VARCHAR,             -- seat that took turn 1
    winner         VARCHAR,             -- p1 | p2 | draw | NULL
    end_reason     VARCHAR,             -- kills | commanders | exhausted | concession | NULL (running)
    turns          INTEGER NOT NULL,    -- highest turn number placed (the challenge is turn 0)
    finished       BOOLEAN NOT NULL,
    last_seq       BIGINT NOT NULL
);

CREATE TABLE proj_players (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,    -- p1 | p2
    player         VARCHAR NOT NULL,    -- the player's name (the identity ratings use)
    army           VARCHAR NOT NULL,    -- army_name: faction, custom:<faction> or mercenary
    opponent       VARCHAR NOT NULL,
    opponent_army  VARCHAR NOT NULL,
    went_first     BOOLEAN NOT NULL,
    result         VARCHAR,             -- win | loss | draw | NULL (running, or ended without a result)
    kills          INTEGER NOT NULL,    -- enemy cards this seat destroyed (position kills included)
    commanders     INTEGER NOT NULL,    -- of which commanders (command + general)
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

CREATE TABLE proj_placements (
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
    played_on      DATE NOT NULL
);

CREATE TABLE proj_kills (
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

CREATE TABLE proj_shots (
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
