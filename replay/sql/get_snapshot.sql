-- get_snapshot: the latest snapshot at or before a seq. No row: the stream does not exist; seq NULL: no snapshot.
-- parameters: $game_id (the stream's id), $at_or_before
-- output: seq, state
SELECT n.seq, n.state
FROM streams AS s
LEFT JOIN (
    SELECT seq, state FROM snapshots
    WHERE game_id = $game_id AND seq <= $at_or_before
    ORDER BY seq DESC
    LIMIT 1
) AS n ON true
WHERE s.stream_id = $game_id;
