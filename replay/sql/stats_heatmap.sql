-- stats_heatmap: placements per square over finished games (challenge placements and units of a starting
-- position left out unless asked for).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any), $card (NULL = any), $owner_view (BOOLEAN: squares seen from the
--   placing player's edge, p2 rotated 180 degrees; false = board squares), $include_challenge (BOOLEAN)
-- output: square, placements
SELECT CASE WHEN $owner_view::BOOLEAN THEN c.own_square ELSE c.square END AS square, count(*) AS placements
FROM proj_placements AS c
WHERE c.result IS NOT NULL AND c.basis <> 'position' AND ($include_challenge::BOOLEAN OR NOT c.challenge)
    AND c.system = $system
    AND ($date_from::DATE IS NULL OR c.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR c.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR c.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR c.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR c.rules_version = $rules_version::VARCHAR)
    AND ($army::VARCHAR IS NULL OR c.army = $army::VARCHAR)
    AND ($card::VARCHAR IS NULL OR c.card = $card::VARCHAR)
GROUP BY 1
ORDER BY 1;
