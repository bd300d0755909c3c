-- 017_annotations: comments the scorekeeper or the tournament's organiser adds to a game's steps (issue 32 item 6),
-- kept apart from the game's events: never part of its log, its hash chain or its verification. Append-only: a row
-- is never changed or deleted. `n` numbers a game's annotations in the order they were added (1, 2, ...), `step` is
-- the seq of the event the comment is about, `role` the token's role (scorekeeper | organiser), `author` the name
-- the author gave (else the role), `created_at` the service's clock.
-- parameters: none
-- output: none
CREATE TABLE annotations (
    game_id    VARCHAR NOT NULL,
    n          INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    text       VARCHAR NOT NULL,
    role       VARCHAR NOT NULL,
    author     VARCHAR NOT NULL,
    created_at VARCHAR NOT NULL,
    PRIMARY KEY (game_id, n)
);
