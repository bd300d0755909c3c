-- stats_aow_removals: units taken off the battlefield by damage, by unit type: captured (R2) against destroyed.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: unit_type, captured, destroyed
SELECT r.unit_type, count(*) FILTER (WHERE r.result = 'captured') AS captured,
       count(*) FILTER (WHERE r.result = 'destroyed') AS destroyed
FROM game_rows('aow_removals', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS r
GROUP BY r.unit_type
ORDER BY r.unit_type;
