-- mirror_horizon: the oldest transaction still running now (every one before it has ended): where the analytics
-- mirror's next sync starts when this one found nothing.
-- parameters: none
-- output: horizon (text)
SELECT pg_snapshot_xmin(pg_current_snapshot())::TEXT;
