-- proj_events_of: the whole streams of some games, up to each game's recorded last_seq, in order.
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, seq, type, schema_version, payload, recorded_at
SELECT e.game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at
FROM events AS e
JOIN games AS g ON g.game_id = e.game_id
WHERE e.game_id IN (SELECT unnest($game_ids::VARCHAR[])) AND e.seq <= g.last_seq
ORDER BY e.game_id, e.seq;
