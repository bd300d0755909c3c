-- stats_rating_count_upto: how many games an Elo pass feeds come at or before a position in the rating order (a
-- cached Elo pass is still valid only if no game was added before its end), and how many there are in all (when
-- no more, the pass is up to date).
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both),
--   $upto_ended_at, $upto_game_id
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: games (at or before the position), total
SELECT count(*) FILTER (WHERE g.ended_at < $upto_ended_at OR (g.ended_at = $upto_ended_at AND g.game_id <= $upto_game_id))
           AS games,
       count(*) AS total
FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL;
