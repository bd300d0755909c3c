-- 011_proj_seats: the statistics' game-agnostic core (docs/statistics.md): one row per seat (proj_seats) and one
-- per seat and opposing seat (proj_opponents), for games of any number of seats, built from the engine's protocol
-- (seats, outcome, turn, to_act) and the system's labels; proj_games gets the seat count and the seats' armies.
-- Filled here from the rows an older projector wrote (two-seat games, proj_players), so a database written before
-- answers the same statistics at once, without `warlog reproject`; the projector writes them from now on.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
-- proj_games gets two columns, seats and armies. It is made again with them and every row copied over (in this
-- transaction, before the old table goes): DuckDB updates a list column row by row, a minute for a million games;
-- the copy takes seconds.
ALTER TABLE proj_games RENAME TO proj_games_010;

CREATE TABLE proj_games (
    game_id        VARCHAR PRIMARY KEY,
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    mode           VARCHAR,             -- sealed | table
    variant        VARCHAR,             -- the system's variant label (Lords of War: standard | intermediate | ...)
    intermediate   BOOLEAN,             -- intermediate .. command_target: setting columns a system's labels fill
    unbounded      BOOLEAN,
    kill_target    BIGINT,
    command_target BIGINT,
    tournament     VARCHAR,
    round          BIGINT,              -- metadata.round when the game was recorded in a tournament round
    started_at     VARCHAR NOT NULL,    -- games.created_at (ISO-8601 UTC)
    ended_at       VARCHAR,             -- recorded_at of the game's last event, once it is over
    played_on      DATE NOT NULL,       -- date of started_at: what the date filters compare
    month          VARCHAR NOT NULL,    -- 'YYYY-MM' of started_at: the Parquet partition
    player_p1      VARCHAR,             -- player_p1 .. army_p2: the seats of a two-seat game (proj_seats: any game)
    player_p2      VARCHAR,
    army_p1        VARCHAR,
    army_p2        VARCHAR,
    first_player   VARCHAR,             -- the seat the game first awaited in turn 1
    winner         VARCHAR,             -- a seat, seats joined by '+', draw, or NULL (running, or no result)
    end_reason     VARCHAR,             -- the outcome's reason, or NULL (running)
    turns          INTEGER NOT NULL,    -- the last turn a seat acted in, concessions aside
    finished       BOOLEAN NOT NULL,
    last_seq       BIGINT NOT NULL,
    seats          INTEGER NOT NULL,    -- seats in the game (0: a game of a system this build lacks)
    armies         VARCHAR[] NOT NULL   -- each seat's army label, in seat order
);

INSERT INTO proj_games (game_id, system, rules_version, mode, variant, intermediate, unbounded, kill_target, command_target, tournament, round, started_at, ended_at, played_on, month, player_p1, player_p2, army_p1, army_p2, first_player, winner, end_reason, turns, finished, last_seq, seats, armies)
SELECT game_id, system, rules_version, mode, variant, intermediate, unbounded, kill_target, command_target, tournament, round, started_at, ended_at, played_on, month, player_p1, player_p2, army_p1, army_p2, first_player, winner, end_reason, turns, finished, last_seq,
       CASE WHEN player_p1 IS NULL THEN 0 ELSE 2 END,
       CASE WHEN army_p1 IS NULL THEN []::VARCHAR[] ELSE [army_p1, army_p2] END
FROM proj_games_010;

DROP TABLE proj_games_010;

CREATE TABLE proj_seats (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,    -- p1, p2, ... (seating order)
    seat_index     INTEGER NOT NULL,    -- 0, 1, ...
    team           VARCHAR,             -- the seat's side where the game has teams, else NULL
    player         VARCHAR NOT NULL,    -- the player's name (the identity ratings use)
    army           VARCHAR NOT NULL,    -- the system's label of the seat: army, faction, clan ('' if none)
    place          INTEGER,             -- finishing place, 1 first; tied seats share it (1, 1, 3); NULL: running
    score          BIGINT,              -- the outcome's score of the seat (Lords of War: cards destroyed)
    result         VARCHAR,             -- win (among the winners) | draw (every seat placed together) | loss | NULL
    went_first     BOOLEAN NOT NULL,    -- the seat the game first awaited in turn 1
    mirror         BOOLEAN NOT NULL,    -- every seat of the game has this army (left out of win rates by army)
    seats          INTEGER NOT NULL,    -- seats in the game
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

INSERT INTO proj_seats
SELECT game_id, seat, CAST(substr(seat, 2) AS INTEGER) - 1, NULL, player, army,
       CASE result WHEN 'win' THEN 1 WHEN 'draw' THEN 1 WHEN 'loss' THEN 2 END,
       CASE WHEN finished THEN kills END, result, went_first, army = opponent_army, 2, system, rules_version,
       variant, tournament, played_on, ended_at, end_reason, turns, finished
FROM proj_players;

CREATE TABLE proj_opponents (
    game_id        VARCHAR NOT NULL,
    seat           VARCHAR NOT NULL,
    opponent_seat  VARCHAR NOT NULL,    -- a seat of another side (teammates are not opponents)
    player         VARCHAR NOT NULL,
    opponent       VARCHAR NOT NULL,
    army           VARCHAR NOT NULL,
    opponent_army  VARCHAR NOT NULL,
    result         VARCHAR,             -- of seat against opponent_seat: win (placed ahead) | draw (same place) | loss
    system         VARCHAR NOT NULL,
    rules_version  VARCHAR,
    variant        VARCHAR,
    tournament     VARCHAR,
    played_on      DATE NOT NULL,
    finished       BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat, opponent_seat)
);

INSERT INTO proj_opponents
SELECT game_id, seat, CASE seat WHEN 'p1' THEN 'p2' ELSE 'p1' END, player, opponent, army, opponent_army, result,
       system, rules_version, variant, tournament, played_on, finished
FROM proj_players;
