-- get_snapshot: the latest snapshot at or before a seq. No row: the game does not exist; seq NULL: no snapshot.
-- parameters: $game_id, $at_or_before
-- output: seq, state
SELECT s.seq, s.state
FROM games AS g
LEFT JOIN (
    SELECT seq, state FROM snapshots
    WHERE game_id = $game_id AND seq <= $at_or_before
    ORDER BY seq DESC
    LIMIT 1
) AS s ON true
WHERE g.game_id = $game_id;
