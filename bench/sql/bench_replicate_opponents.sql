-- bench_replicate_opponents: proj_opponents rows of the replicated games (names, dates, tournaments from proj_games).
-- parameters: none
-- output: none
INSERT INTO proj_opponents BY NAME
SELECT o.* REPLACE (n.game_id AS game_id, CASE o.seat WHEN 'p1' THEN n.player_p1 ELSE n.player_p2 END AS player,
                    CASE o.seat WHEN 'p1' THEN n.player_p2 ELSE n.player_p1 END AS opponent,
                    n.tournament AS tournament, n.played_on AS played_on)
FROM proj_games AS n
JOIN bench_base_opponents AS o ON o.game_id = split_part(n.game_id, '~', 1);
