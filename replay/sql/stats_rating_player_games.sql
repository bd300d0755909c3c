-- stats_rating_player_games: one player's rated games in the rating order (for the rating history).
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $player
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: game_id, ended_at   (games against oneself are not rated, so not listed)
SELECT g.game_id, g.ended_at
FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
WHERE g.finished AND g.winner IS NOT NULL AND g.player_p1 IS NOT NULL AND g.player_p2 IS NOT NULL
    AND (g.player_p1 = $player OR g.player_p2 = $player) AND g.player_p1 <> g.player_p2
ORDER BY g.ended_at, g.game_id;
