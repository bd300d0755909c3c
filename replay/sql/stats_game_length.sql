-- stats_game_length: how many finished games lasted each number of turns (the game's `turns`: the last turn a seat
-- acted in, concessions aside; Lords of War counts the challenge as turn 0).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = any; else games where a seat had that army)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: turns, games
SELECT g.turns, count(*) AS games
FROM core_rows('proj_games', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS g
WHERE g.finished
    AND ($army::VARCHAR IS NULL OR list_contains(g.armies, $army::VARCHAR))
GROUP BY g.turns
ORDER BY g.turns;
