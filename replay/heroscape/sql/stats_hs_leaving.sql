-- stats_hs_leaving: how often leaving engagement costs a figure, by the number of enemies striking.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: strikers, moves, wounded, destroyed
SELECT l.strikers, count(*) AS moves, count(*) FILTER (WHERE l.wounds > 0) AS wounded,
       count(*) FILTER (WHERE l.destroyed) AS destroyed
FROM game_rows('hs_leaving', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS l
GROUP BY l.strikers
ORDER BY l.strikers;
