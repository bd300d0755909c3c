-- stats_l5r_duels_by_difference: duels by the challenger's base minus the challenged's (stat with modifiers, -3
-- and 3 taking everything beyond): how often each side wins, and ties (both lose).
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: difference, duels, challenger_wins, ties, challenged_wins
SELECT greatest(-3, least(3, d.difference)) AS difference, count(*) AS duels,
       count(*) FILTER (WHERE d.outcome = 'challenger') AS challenger_wins,
       count(*) FILTER (WHERE d.outcome = 'tie') AS ties,
       count(*) FILTER (WHERE d.outcome = 'challenged') AS challenged_wins
FROM game_rows('l5r_duels', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS d
GROUP BY 1
ORDER BY 1;
