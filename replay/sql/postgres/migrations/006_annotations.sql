-- 006_annotations: comments the scorekeeper or the tournament's organiser adds to a game's steps (issue 32 item 6),
-- as the DuckDB store's shared migration 017: kept apart from the game's events (never in its log, its hash chain or
-- its verification), append-only, `n` numbering a game's annotations in the order they were added.
-- parameters: none
-- output: none
CREATE TABLE annotations (
    game_id    TEXT COLLATE "C" NOT NULL,
    n          INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    text       TEXT NOT NULL,
    role       TEXT NOT NULL,
    author     TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (game_id, n)
);
