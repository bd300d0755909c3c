-- stats_end_reasons: how finished games ended (an adjudicated game: split by the adjudication's reason).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = any; else games where a seat had that army)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: end_reason, adjudication (the adjudication's reason for end_reason adjudicated, else NULL), games
SELECT g.end_reason, g.adjudication, count(*) AS games
FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
WHERE g.finished
    AND ($army::VARCHAR IS NULL OR list_contains(g.armies, $army::VARCHAR))
GROUP BY g.end_reason, g.adjudication
ORDER BY g.end_reason, g.adjudication NULLS FIRST;
