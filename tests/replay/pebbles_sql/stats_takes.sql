-- stats_takes: how many pebbles the takes of finished games took.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version)
-- output: count, takes
SELECT t.count, count(*) AS takes
FROM stats_rows('pebbles_takes', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS t
GROUP BY t.count
ORDER BY t.count;
