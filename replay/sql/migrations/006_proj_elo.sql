-- 006_proj_elo: the overall Elo ratings kept as a projection (replay/ratings.py: sync_elo), so the leaderboard and
-- rating histories need no pass over every game. Derived from proj_games, not from events: after each projector
-- pass sync_elo continues it with the games that ended after its cursor, or redoes it when a game turns up before.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
CREATE TABLE proj_elo_cursor (
    system        VARCHAR PRIMARY KEY,
    last_ended_at VARCHAR NOT NULL,   -- (ended_at, game_id) of the last game fed, in the rating order
    last_game_id  VARCHAR NOT NULL,
    fed_rows      BIGINT NOT NULL,    -- games fed (stats_rating_games rows up to the cursor)
    rated_games   BIGINT NOT NULL     -- of which rated (= proj_elo_history rows)
);

CREATE TABLE proj_elo_players (
    system      VARCHAR NOT NULL,
    player      VARCHAR NOT NULL,
    rating      DOUBLE NOT NULL,
    games       BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    losses      BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    peak        DOUBLE NOT NULL,
    last_played VARCHAR NOT NULL,
    PRIMARY KEY (system, player)
);

CREATE TABLE proj_elo_history (
    system    VARCHAR NOT NULL,
    position  BIGINT NOT NULL,        -- 0, 1, ... in the rating order
    game_id   VARCHAR NOT NULL,
    ended_at  VARCHAR NOT NULL,
    player_a  VARCHAR NOT NULL,       -- p1
    player_b  VARCHAR NOT NULL,       -- p2
    score_a   TINYINT NOT NULL,       -- 2 win, 1 draw, 0 loss for player_a
    before_a  DOUBLE NOT NULL,
    before_b  DOUBLE NOT NULL,
    after_a   DOUBLE NOT NULL,
    after_b   DOUBLE NOT NULL
);
