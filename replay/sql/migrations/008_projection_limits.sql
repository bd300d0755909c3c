-- 008_projection_limits: (1) the projection columns that copy numbers straight from a game's setup are BIGINT, so
-- whatever a store holds fits them: kill_target, command_target (variant), round (games.metadata), and the players'
-- kills / commanders (a starting position's kills add to them). Setups are bounded by the rules since issue 11
-- (docs/rulings.md, decision 17), but a database written before may hold games with numbers past 2^31, which
-- failed the projector with "ConversionException ... INT32". (2) proj_set_aside: the games the projector could not
-- project, each retried alone first (replay/projections.py); such a game is skipped until it gets new events or
-- `warlog reproject` empties the table, and never blocks the other games, start-up or shutdown.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
ALTER TABLE proj_games ALTER COLUMN kill_target SET DATA TYPE BIGINT;
ALTER TABLE proj_games ALTER COLUMN command_target SET DATA TYPE BIGINT;
ALTER TABLE proj_games ALTER COLUMN round SET DATA TYPE BIGINT;
ALTER TABLE proj_players ALTER COLUMN kills SET DATA TYPE BIGINT;
ALTER TABLE proj_players ALTER COLUMN commanders SET DATA TYPE BIGINT;
CREATE TABLE proj_set_aside (
    game_id      VARCHAR PRIMARY KEY,
    last_seq     BIGINT NOT NULL,     -- the game's last seq when it failed: it is tried again once it has more
    error        VARCHAR NOT NULL,    -- what failed, e.g. "ConversionException: ..."
    set_aside_at VARCHAR NOT NULL     -- ISO-8601 UTC
);
