-- mirror_changed: games written by transactions at or after a transaction id, a page at a time in (changed_xid,
-- game_id) order (the analytics mirror), with the oldest transaction still running as of this statement's
-- snapshot: every transaction before it had ended when the rows were read, so the next sync may start there.
-- Always one row at least: with no game to copy, one row of NULLs but the horizon (from the same snapshot as the
-- rows: a horizon read by a later statement could pass a commit that the rows missed).
-- parameters: $after_xid (a transaction id, as text), $after_game_id ('' for the first page), $limit
-- output: game_id, system, created_at, players, tournament, metadata (JSON text), last_seq, changed_xid (text),
--   horizon (text)
SELECT g.game_id, g.system, g.created_at, g.players, g.tournament, g.metadata, g.last_seq, g.changed_xid,
       h.horizon
FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::TEXT AS horizon) AS h
LEFT JOIN LATERAL (
    SELECT game_id, system, created_at, players, tournament, metadata::TEXT AS metadata, last_seq,
           changed_xid::TEXT AS changed_xid
    FROM games
    WHERE (changed_xid, game_id) > ($after_xid::XID8, $after_game_id::TEXT)
    ORDER BY changed_xid, game_id
    LIMIT $limit
) AS g ON true
ORDER BY g.changed_xid::XID8, g.game_id;
