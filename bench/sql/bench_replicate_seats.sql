-- bench_replicate_seats: proj_seats rows of the replicated games (names, dates, tournaments from proj_games).
-- parameters: none
-- output: none
INSERT INTO proj_seats BY NAME
SELECT s.* REPLACE (n.game_id AS game_id, CASE s.seat WHEN 'p1' THEN n.player_p1 ELSE n.player_p2 END AS player,
                    n.tournament AS tournament, n.played_on AS played_on, n.ended_at AS ended_at)
FROM proj_games AS n
JOIN bench_base_seats AS s ON s.game_id = split_part(n.game_id, '~', 1);
