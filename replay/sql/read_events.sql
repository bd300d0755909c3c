-- read_events: a slice of one game's stream, with the game's last_seq. No row at all: the game does not exist;
-- one row with seq NULL: the game exists but has no event in the slice.
-- parameters: $game_id, $from_seq, $to_seq
-- output: last_seq, seq, type, schema_version, payload, recorded_at, hash
SELECT g.last_seq, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM games AS g
LEFT JOIN (
    SELECT seq, type, schema_version, payload, recorded_at, hash
    FROM events
    WHERE game_id = $game_id AND seq >= $from_seq AND seq <= $to_seq
) AS e ON e.seq <= g.last_seq
WHERE g.game_id = $game_id
ORDER BY e.seq;
