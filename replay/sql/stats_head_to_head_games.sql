-- stats_head_to_head_games: the number of GAMES head-to-head's rows come from (stats_head_to_head counts pairs of
-- opposing seats: a game of four seats in two teams is four pairs, and one game).
-- parameters: as stats_head_to_head: $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
--   $player, $opponent, $min_games, $catalogue
-- output: games
WITH pairs AS (
    SELECT o.game_id, o.player, o.opponent
    FROM core_rows('proj_opponents', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS o
    WHERE o.finished AND o.result IS NOT NULL
        AND ($player::VARCHAR IS NULL OR o.player = $player::VARCHAR)
        AND ($opponent::VARCHAR IS NULL OR o.opponent = $opponent::VARCHAR)
), kept AS (
    SELECT player, opponent FROM pairs GROUP BY player, opponent HAVING count(*) >= $min_games
)
SELECT count(DISTINCT pairs.game_id) AS games
FROM pairs
JOIN kept ON kept.player = pairs.player AND kept.opponent = pairs.opponent;
