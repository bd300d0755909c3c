-- stats_rating_player_games: one player's rated games in the rating order (for the rating history).
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any), $player
-- output: game_id, ended_at   (games against oneself are not rated, so not listed)
SELECT g.game_id, g.ended_at
FROM proj_games AS g
WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL
    AND g.system = $system
    AND ($date_from::DATE IS NULL OR g.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR g.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR g.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR g.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR g.rules_version = $rules_version::VARCHAR)
    AND (g.player_p1 = $player OR g.player_p2 = $player) AND g.player_p1 <> g.player_p2
ORDER BY g.ended_at, g.game_id;
