-- stats_heatmap: placements per square over finished games (challenge placements and units of a starting
-- position left out unless asked for).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any), $card (NULL = any; a card id, or one without its copy suffix: every copy), $owner_view (BOOLEAN: squares seen from the
--   placing player's edge, p2 rotated 180 degrees; false = board squares), $include_challenge (BOOLEAN),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: square, placements
SELECT CASE WHEN $owner_view::BOOLEAN THEN c.own_square ELSE c.square END AS square, count(*) AS placements
FROM game_rows('low_placements', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS c
WHERE c.result IS NOT NULL AND c.basis <> 'position' AND ($include_challenge::BOOLEAN OR NOT c.challenge)
    AND ($army::VARCHAR IS NULL OR c.army = $army::VARCHAR)
    AND ($card::VARCHAR IS NULL OR c.card = $card::VARCHAR OR regexp_replace(c.card, '-[0-9]+$', '') = $card::VARCHAR)
GROUP BY 1
ORDER BY 1;
