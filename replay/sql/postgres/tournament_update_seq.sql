-- tournament_update_seq: move a tournament's last seq on.
-- parameters: $tournament_id, $last_seq
-- output: none
UPDATE tournaments SET last_seq = $last_seq WHERE tournament_id = $tournament_id;
