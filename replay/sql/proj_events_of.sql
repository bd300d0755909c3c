-- proj_events_of: the whole streams of some games, up to each game's recorded last_seq, in order.
-- parameters: $game_ids (VARCHAR[])
-- output: game_id, seq, type, schema_version, payload, recorded_at
SELECT e.stream_id AS game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at
FROM stream_events AS e
JOIN games AS g ON g.game_id = e.stream_id
WHERE e.stream_id IN (SELECT unnest($game_ids::VARCHAR[])) AND e.seq <= g.last_seq
ORDER BY e.stream_id, e.seq;
