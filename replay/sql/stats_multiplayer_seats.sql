-- stats_multiplayer_seats: the seats of the games an openskill pass rates (replay/analytics/multiplayer.py): every
-- finished game of more than two seats with places, passing the filters, in the rating order (the time the game
-- ended, then game_id; seats in seating order), after a position in that order (to continue a pass) or from the first.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $after_ended_at, $after_game_id (the last game already fed; NULL = from the first)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: game_id, ended_at, team, player, place, result
SELECT s.game_id, s.ended_at, s.team, s.player, s.place, s.result
FROM core_rows('proj_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS s
WHERE s.finished AND s.seats > 2 AND s.place IS NOT NULL
    AND ($after_ended_at::VARCHAR IS NULL OR s.ended_at > $after_ended_at::VARCHAR
         OR (s.ended_at = $after_ended_at::VARCHAR AND s.game_id > $after_game_id::VARCHAR))
ORDER BY s.ended_at, s.game_id, s.seat_index;
