-- tournament_last_seq: a tournament's last seq, its row locked to the end of the transaction (no row if new).
-- parameters: $tournament_id
-- output: last_seq
SELECT last_seq FROM tournaments WHERE tournament_id = $tournament_id FOR UPDATE;
