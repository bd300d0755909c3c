-- listen: receive the warlog_events notifications on this connection (its own, outside the pool).
-- parameters: none
-- output: none
LISTEN warlog_events;
