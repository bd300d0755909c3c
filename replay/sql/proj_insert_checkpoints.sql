-- proj_insert_checkpoints: bulk upsert of proj_checkpoint rows (one list per column, zipped row by row).
-- parameters: $game_id, $last_seq, $facts_written, $projected_at
-- output: none
INSERT OR REPLACE INTO proj_checkpoint (game_id, last_seq, facts_written, projected_at)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($last_seq::BIGINT[]),
    unnest($facts_written::BOOLEAN[]),
    unnest($projected_at::VARCHAR[]);
