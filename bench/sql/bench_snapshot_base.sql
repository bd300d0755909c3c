-- bench_snapshot_base: keep the projected bot games as the base of the replication and empty the proj tables.
-- MULTI-STATEMENT FILE (bench only).
-- parameters: none
-- output: none
CREATE TABLE bench_base_games AS SELECT * FROM proj_games;
CREATE TABLE bench_base_players AS SELECT * FROM low_players;
CREATE TABLE bench_base_placements AS SELECT * FROM low_placements;
CREATE TABLE bench_base_seats AS SELECT * FROM proj_seats;
CREATE TABLE bench_base_opponents AS SELECT * FROM proj_opponents;
DELETE FROM proj_games;
DELETE FROM low_players;
DELETE FROM proj_seats;
DELETE FROM proj_opponents;
DELETE FROM low_placements;
DELETE FROM low_kills;
DELETE FROM low_shots;
DELETE FROM low_card_daily;
