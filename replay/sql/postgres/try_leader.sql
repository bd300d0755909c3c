-- try_leader: take the projector's session advisory lock if no other session holds it (the analytics leader);
-- keyed by the schema, as the migration lock is.
-- parameters: none
-- output: pg_try_advisory_lock
SELECT pg_try_advisory_lock(190002, hashtext(current_schema()));
