-- stats_aow_kingdoms: the kingdom composition at the end, winners against losers: mean cards of each basic type.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: result, seats, soldiers, archers, priests, guardians, wizards
SELECT s.result, count(*) AS seats, avg(s.soldiers) AS soldiers, avg(s.archers) AS archers,
       avg(s.priests) AS priests, avg(s.guardians) AS guardians, avg(s.wizards) AS wizards
FROM game_rows('aow_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS s
WHERE s.result IN ('win', 'loss')
GROUP BY s.result
ORDER BY s.result DESC;
