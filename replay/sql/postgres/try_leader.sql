-- try_leader: take the projector's session advisory lock if no other session holds it (the analytics leader);
-- keyed by the schema, as the migration lock is, and by the scope (one leader per machine by default: each
-- machine publishes the statistics' file its own servers read).
-- parameters: scope
-- output: pg_try_advisory_lock
SELECT pg_try_advisory_lock(190002, hashtext(current_schema() || ':' || $scope));
