-- stats_rating_pass: what an Elo pass needs of the games it rates, in one statement (one snapshot): every finished
-- two-player game with a result passing the filters, in the rating order (the time the game ended, then game_id),
-- after a position in that order (to continue a pass) or from the first. Players are numbered (their index in
-- `players`, sorted by name) so the rated games travel as integers, not names.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $after_ended_at, $after_game_id (the last game already fed; NULL = from the
--   first), $with_ids (BOOLEAN: also list the rated games' ids and ends)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: game, game_id, ended_at, pass. The first row is the pass's: only `pass` is set, a JSON object of
--     fed (games after the position, rated or not: a game against oneself or with an unknown result is not),
--     last_ended_at, last_game_id (the last of them; NULL when none), and lists by player number: players (names),
--     games, wins, losses, draws, last_played (ended_at of the player's last rated game here).
--   Then one row per rated game in the rating order: game = (a << 34) | (score_a << 32) | b, with a, b the numbers
--     of p1 and p2 and score_a 2 (p1 won), 1 (draw), 0 (p2 won); game_id and ended_at when $with_ids, else NULL.
WITH fed AS (
    SELECT g.game_id, g.ended_at, g.player_p1, g.player_p2, g.winner
    FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
    WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL
        AND ($after_ended_at::VARCHAR IS NULL OR g.ended_at > $after_ended_at::VARCHAR
             OR (g.ended_at = $after_ended_at::VARCHAR AND g.game_id > $after_game_id::VARCHAR))
), rated AS (
    SELECT f.game_id, f.ended_at, f.player_p1, f.player_p2,
           CASE f.winner WHEN 'p1' THEN 2 WHEN 'draw' THEN 1 ELSE 0 END AS score_a
    FROM fed AS f
    WHERE f.winner IN ('p1', 'p2', 'draw') AND f.player_p1 <> f.player_p2
), seats AS (
    SELECT player_p1 AS player, score_a AS score, ended_at FROM rated
    UNION ALL
    SELECT player_p2 AS player, 2 - score_a AS score, ended_at FROM rated
), players AS (
    SELECT player, (row_number() OVER (ORDER BY player) - 1)::BIGINT AS number, count(*) AS games,
           count_if(score = 2) AS wins, count_if(score = 0) AS losses, count_if(score = 1) AS draws,
           max(ended_at) AS last_played
    FROM seats
    GROUP BY player
), ordered AS (
    SELECT 1 AS kind, r.ended_at, r.game_id, (a.number << 34) | (r.score_a::BIGINT << 32) | b.number AS game,
           NULL::VARCHAR AS pass
    FROM rated AS r
    JOIN players AS a ON a.player = r.player_p1
    JOIN players AS b ON b.player = r.player_p2
    UNION ALL
    SELECT 0 AS kind, NULL AS ended_at, NULL AS game_id, NULL AS game, {  -- JSON text: sorts and converts cheaper than a STRUCT
        'fed': (SELECT count(*) FROM fed),
        'last_ended_at': (SELECT max(f.ended_at) FROM fed AS f),
        'last_game_id': (SELECT max(f.game_id) FROM fed AS f WHERE f.ended_at = (SELECT max(e.ended_at) FROM fed AS e)),
        'players': list(p.player ORDER BY p.number), 'games': list(p.games ORDER BY p.number),
        'wins': list(p.wins ORDER BY p.number), 'losses': list(p.losses ORDER BY p.number),
        'draws': list(p.draws ORDER BY p.number), 'last_played': list(p.last_played ORDER BY p.number)
    }::JSON::VARCHAR AS pass
    FROM players AS p
)
SELECT o.game, CASE WHEN $with_ids::BOOLEAN THEN o.game_id END AS game_id,
       CASE WHEN $with_ids::BOOLEAN THEN o.ended_at END AS ended_at, o.pass
FROM ordered AS o
ORDER BY o.kind, o.ended_at, o.game_id;
