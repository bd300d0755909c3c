-- get_snapshot: the latest snapshot at or before a seq (NULLs if none); no row if the stream does not exist.
-- parameters: $game_id (the stream's id), $at_or_before
-- output: seq, state
SELECT n.seq, n.state
FROM streams AS s
LEFT JOIN LATERAL (
    SELECT seq, state FROM snapshots
    WHERE game_id = s.stream_id AND seq <= $at_or_before
    ORDER BY seq DESC
    LIMIT 1
) AS n ON true
WHERE s.stream_id = $game_id;
