-- bench_replicate_players: low_players rows of the replicated games (names, dates, tournaments from proj_games).
-- parameters: none
-- output: none
INSERT INTO low_players
SELECT n.game_id, p.seat,
       CASE p.seat WHEN 'p1' THEN n.player_p1 ELSE n.player_p2 END,
       p.army,
       CASE p.seat WHEN 'p1' THEN n.player_p2 ELSE n.player_p1 END,
       p.opponent_army, p.went_first, p.result, p.kills, p.commanders, p.placements, p.recalls, p.system,
       p.rules_version, p.variant, n.tournament, n.played_on, n.ended_at, p.end_reason, p.turns, p.finished
FROM proj_games AS n
JOIN bench_base_players AS p ON p.game_id = split_part(n.game_id, '~', 1);
