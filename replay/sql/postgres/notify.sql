-- notify: tell every process listening on warlog_events that games changed, one notification per game; the
-- payload is `schema:game_id`, so stores of other schemas in the same database tell theirs apart. Sent after the
-- commits it reports, in a transaction that writes nothing (a NOTIFY inside a writing transaction holds a lock
-- of the whole database through that transaction's commit: it serialised every append).
-- parameters: $game_ids (TEXT[])
-- output: pg_notify
SELECT pg_notify('warlog_events', current_schema() || ':' || game_id) FROM unnest($game_ids::TEXT[]) AS game_id;
