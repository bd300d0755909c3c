-- stats_aow_victories: how often each victory condition (or a concession, or the one draw) ends a finished game.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version)
-- output: end_reason, games
SELECT s.end_reason, count(*) AS games
FROM stats_rows('aow_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS s
WHERE s.seat = 'p1'
GROUP BY s.end_reason
ORDER BY games DESC, s.end_reason;
