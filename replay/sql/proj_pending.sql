-- proj_pending: games with events not yet projected, in game_id order, a page at a time; a game set aside
-- (proj_set_aside) is left out until it has events after the ones that failed.
-- parameters: $after (VARCHAR: page after this game_id, '' for the first page), $limit
-- output: game_id, system, created_at, tournament, metadata, last_seq, projected_seq, facts_written
SELECT g.game_id, g.system, g.created_at, g.tournament, g.metadata, g.last_seq,
       coalesce(c.last_seq, 0) AS projected_seq, coalesce(c.facts_written, false) AS facts_written
FROM games AS g
LEFT JOIN proj_checkpoint AS c ON c.game_id = g.game_id
LEFT JOIN proj_set_aside AS s ON s.game_id = g.game_id
WHERE g.last_seq > coalesce(c.last_seq, 0) AND g.last_seq > coalesce(s.last_seq, 0) AND g.game_id > $after
ORDER BY g.game_id
LIMIT $limit;
