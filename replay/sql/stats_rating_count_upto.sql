-- stats_rating_count_upto: how many rated games come at or before a position in the rating order (a cached Elo
-- pass is still valid only if no game was added before its end).
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any),
--   $upto_ended_at, $upto_game_id
-- output: games
SELECT count(*) AS games
FROM proj_games AS g
WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL
    AND g.system = $system
    AND ($date_from::DATE IS NULL OR g.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR g.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR g.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR g.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR g.rules_version = $rules_version::VARCHAR)
    AND (g.ended_at < $upto_ended_at OR (g.ended_at = $upto_ended_at AND g.game_id <= $upto_game_id));
