-- notify: tell every process listening on warlog_events that a game changed (delivered when the transaction
-- commits; the payload is `schema:game_id`, so stores of other schemas in the same database tell theirs apart).
-- parameters: $game_id
-- output: pg_notify
SELECT pg_notify('warlog_events', current_schema() || ':' || $game_id);
