-- tournament_last_seq: a tournament's last seq; no row if it does not exist.
-- parameters: $tournament_id
-- output: last_seq
SELECT last_seq FROM tournaments WHERE tournament_id = $tournament_id;
