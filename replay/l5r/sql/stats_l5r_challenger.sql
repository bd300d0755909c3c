-- stats_l5r_challenger: the challenger's advantage, by the challenger's clan and over all duels (clan NULL).
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: clan, duels, challenger_wins, ties, challenged_wins
SELECT d.clan, count(*) AS duels,
       count(*) FILTER (WHERE d.outcome = 'challenger') AS challenger_wins,
       count(*) FILTER (WHERE d.outcome = 'tie') AS ties,
       count(*) FILTER (WHERE d.outcome = 'challenged') AS challenged_wins
FROM game_rows('l5r_duels', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS d
GROUP BY ROLLUP (d.clan)
HAVING count(*) > 0
ORDER BY d.clan NULLS FIRST;
