-- mirror_fingerprint: what changes whenever the projector writes (its checkpoints) or sets a game aside: the
-- leader publishes the statistics again when it differs from the one published.
-- parameters: none
-- output: checkpoints, last_projected_at, set_aside
SELECT (SELECT count(*) FROM proj_checkpoint), (SELECT max(projected_at) FROM proj_checkpoint),
       (SELECT count(*) FROM proj_set_aside);
