-- contents_insert_missing: hash every game that has no content row (migration 002 defines the hash); a row another
-- process inserted meanwhile is left as it is (the same hash of the same events).
-- parameters: none
-- output: none
INSERT INTO game_contents (game_id, content_hash, last_seq)
SELECT g.game_id,
       encode(sha256(convert_to(coalesce(string_agg(e.type || ' ' || e.schema_version::TEXT || ' ' || e.payload
                                                    || chr(10), '' ORDER BY e.seq), ''), 'UTF8')), 'hex'),
       g.last_seq
FROM games AS g
LEFT JOIN stream_events AS e ON e.stream_id = g.game_id AND e.seq <= g.last_seq
WHERE NOT EXISTS (SELECT 1 FROM game_contents AS c WHERE c.game_id = g.game_id)
GROUP BY g.game_id, g.last_seq
ON CONFLICT (game_id) DO NOTHING;
