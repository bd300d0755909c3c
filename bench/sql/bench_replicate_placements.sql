-- bench_replicate_placements: low_placements rows of the replicated games (dates, tournaments from proj_games).
-- parameters: none
-- output: none
INSERT INTO low_placements BY NAME
SELECT c.* REPLACE (n.game_id AS game_id, n.tournament AS tournament, n.played_on AS played_on)
FROM proj_games AS n
JOIN bench_base_placements AS c ON c.game_id = split_part(n.game_id, '~', 1);
