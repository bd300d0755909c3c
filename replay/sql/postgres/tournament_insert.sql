-- tournament_insert: a new tournament's row (a racing creator meets the primary key).
-- parameters: $tournament_id, $created_at, $last_seq
-- output: none
INSERT INTO tournaments (tournament_id, created_at, last_seq) VALUES ($tournament_id, $created_at, $last_seq);
