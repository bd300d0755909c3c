-- proj_pending_games: which of the given games have events not yet projected (a game set aside in proj_set_aside
-- only once it has events after the ones that failed).
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, system, created_at, tournament, metadata, last_seq, projected_seq, facts_written
SELECT g.game_id, g.system, g.created_at, g.tournament, g.metadata, g.last_seq,
       coalesce(c.last_seq, 0) AS projected_seq, coalesce(c.facts_written, false) AS facts_written
FROM games AS g
LEFT JOIN proj_checkpoint AS c ON c.game_id = g.game_id
LEFT JOIN proj_set_aside AS s ON s.game_id = g.game_id
WHERE g.game_id IN (SELECT unnest($game_ids::VARCHAR[])) AND g.last_seq > coalesce(c.last_seq, 0)
    AND g.last_seq > coalesce(s.last_seq, 0)
ORDER BY g.game_id;
