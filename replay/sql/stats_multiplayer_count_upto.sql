-- stats_multiplayer_count_upto: how many seat rows an openskill pass feeds come at or before a position in the rating
-- order (a cached pass is still valid only if no game was added before its end), and how many there are in all.
-- parameters: $system, $date_from, $date_to, $tournament, $variant, $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both),
--   $upto_ended_at, $upto_game_id
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: seats (at or before the position), total
SELECT count(*) FILTER (WHERE s.ended_at < $upto_ended_at OR (s.ended_at = $upto_ended_at AND s.game_id <= $upto_game_id))
           AS seats,
       count(*) AS total
FROM core_rows('proj_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS s
WHERE s.finished AND s.seats > 2 AND s.place IS NOT NULL;
