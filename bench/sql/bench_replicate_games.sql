-- bench_replicate_games: proj_games rows for $copies copies of every base game (bench only, docs/statistics.md).
-- Copy i of game g is 'g~i'; it starts on day (hash of its id) mod 730 after 2025-01-01; its players are drawn
-- from a pool of $players names by hash; every 10th copy is in one of 50 tournaments.
-- parameters: $copies, $players
-- output: none
INSERT INTO proj_games
SELECT g.game_id || '~' || c.i AS game_id, g.system, g.rules_version, g.mode, g.variant, g.intermediate, g.unbounded,
       g.kill_target, g.command_target,
       CASE WHEN c.i % 10 = 0 THEN 'cup-' || (hash(g.game_id, c.i) % 50) END AS tournament, g.round,
       strftime(d.day, '%Y-%m-%d') || substr(g.started_at, 11) AS started_at,
       strftime(d.day, '%Y-%m-%d') || substr(g.ended_at, 11) AS ended_at,
       d.day::DATE AS played_on, strftime(d.day, '%Y-%m') AS month,
       'player-' || (hash(g.game_id, c.i, 1) % $players) AS player_p1,
       'player-' || ((hash(g.game_id, c.i, 1) % $players + 1 + hash(g.game_id, c.i, 2) % ($players - 1)) % $players) AS player_p2,
       g.army_p1, g.army_p2, g.first_player, g.winner, g.end_reason, g.turns, g.finished, g.last_seq, g.seats, g.armies,
       g.adjudication
FROM bench_base_games AS g
CROSS JOIN range($copies) AS c(i)
CROSS JOIN LATERAL (SELECT DATE '2025-01-01' + CAST(hash(g.game_id, c.i) % 730 AS INTEGER) AS day) AS d;
