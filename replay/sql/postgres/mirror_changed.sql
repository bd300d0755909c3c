-- mirror_changed: games written by transactions at or after a transaction id, a page at a time in (changed_xid,
-- game_id) order (the analytics mirror), with the oldest transaction still running as of this statement: every
-- transaction before it has committed or rolled back, so the next sync may start there.
-- parameters: $after_xid (a transaction id, as text), $after_game_id ('' for the first page), $limit
-- output: game_id, system, created_at, players, tournament, metadata (JSON text), last_seq, changed_xid (text),
--   horizon (text)
SELECT game_id, system, created_at, players, tournament, metadata::TEXT, last_seq, changed_xid::TEXT,
       pg_snapshot_xmin(pg_current_snapshot())::TEXT
FROM games
WHERE (changed_xid, game_id) > ($after_xid::XID8, $after_game_id::TEXT)
ORDER BY changed_xid, game_id
LIMIT $limit;
