-- tournament_read_events: a tournament's events in order.
-- parameters: $tournament_id
-- output: seq, type, payload, recorded_at
SELECT seq, type, payload, recorded_at FROM tournament_events WHERE tournament_id = $tournament_id ORDER BY seq;
