-- stats_rating_games_after: like stats_rating_games, only the games after a position in the rating order (to
-- continue a cached Elo pass).
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any),
--   $after_ended_at, $after_game_id (the last game already rated)
-- output: game_id, ended_at, player_p1, player_p2, winner
SELECT g.game_id, g.ended_at, g.player_p1, g.player_p2, g.winner
FROM proj_games AS g
WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL
    AND g.system = $system
    AND ($date_from::DATE IS NULL OR g.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR g.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR g.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR g.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR g.rules_version = $rules_version::VARCHAR)
    AND (g.ended_at > $after_ended_at OR (g.ended_at = $after_ended_at AND g.game_id > $after_game_id))
ORDER BY g.ended_at, g.game_id;
