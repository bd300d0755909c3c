-- tournament_insert: register a new tournament (fails on the primary key if the id is taken).
-- parameters: $tournament_id, $created_at, $last_seq
-- output: none
INSERT INTO tournaments (tournament_id, created_at, last_seq) VALUES ($tournament_id, $created_at, $last_seq);
