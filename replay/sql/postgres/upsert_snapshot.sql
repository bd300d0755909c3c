-- upsert_snapshot: store (or replace) the snapshot of a game at a seq.
-- parameters: $game_id, $seq, $state (bytes)
-- output: none
INSERT INTO snapshots (game_id, seq, state) VALUES ($game_id, $seq, $state)
ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state;
