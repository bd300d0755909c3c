-- proj_set_aside: record a game the projector could not project, alone in its own transaction (migration 008).
-- parameters: $game_id, $last_seq (the game's last seq then: it is tried again once it has more), $error,
--   $set_aside_at (ISO-8601 UTC)
-- output: none
INSERT OR REPLACE INTO proj_set_aside (game_id, last_seq, error, set_aside_at)
VALUES ($game_id, $last_seq, $error, $set_aside_at);
