-- contents_insert_missing: hash every game that has no content row (migration 010 defines the hash).
-- parameters: none
-- output: none
INSERT INTO game_contents (game_id, content_hash, last_seq)
SELECT g.game_id,
       sha256(coalesce(string_agg(e.type || ' ' || e.schema_version::VARCHAR || ' ' || e.payload || chr(10), ''
                                  ORDER BY e.seq), '')),
       g.last_seq
FROM games AS g
LEFT JOIN stream_events AS e ON e.stream_id = g.game_id AND e.seq <= g.last_seq
WHERE g.game_id NOT IN (SELECT c.game_id FROM game_contents AS c)
GROUP BY g.game_id, g.last_seq;
