-- stats_l5r_duels_by_focuses: duels by the number of focus cards both duellists laid (0 to 8).
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: focuses, duels, challenger_wins, ties, challenged_wins
SELECT d.focuses, count(*) AS duels,
       count(*) FILTER (WHERE d.outcome = 'challenger') AS challenger_wins,
       count(*) FILTER (WHERE d.outcome = 'tie') AS ties,
       count(*) FILTER (WHERE d.outcome = 'challenged') AS challenged_wins
FROM game_rows('l5r_duels', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS d
GROUP BY d.focuses
ORDER BY d.focuses;
