-- get_snapshot: the latest snapshot at or before a seq (NULLs if none); no row if the game does not exist.
-- parameters: $game_id, $at_or_before
-- output: seq, state
SELECT s.seq, s.state
FROM games AS g
LEFT JOIN LATERAL (
    SELECT seq, state FROM snapshots
    WHERE game_id = g.game_id AND seq <= $at_or_before
    ORDER BY seq DESC
    LIMIT 1
) AS s ON true
WHERE g.game_id = $game_id;
