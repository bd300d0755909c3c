-- proj_lag: how far the projections are behind the log: games and events not yet projected (games set aside in
-- proj_set_aside are not waiting: they are left out until they get new events).
-- parameters: none
-- output: games, events
SELECT count(*) AS games, coalesce(sum(g.last_seq - coalesce(c.last_seq, 0)), 0) AS events
FROM games AS g
LEFT JOIN proj_checkpoint AS c ON c.game_id = g.game_id
LEFT JOIN proj_set_aside AS s ON s.game_id = g.game_id
WHERE g.last_seq > coalesce(c.last_seq, 0) AND g.last_seq > coalesce(s.last_seq, 0);
