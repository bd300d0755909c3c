-- stats_hs_height: damage by height difference (normal attacks: the attacker's level minus the target's).
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: height_diff, attacks, wounds, destroyed
SELECT a.height_diff, count(*) AS attacks, sum(a.wounds) AS wounds, count(*) FILTER (WHERE a.destroyed) AS destroyed
FROM game_rows('hs_attacks', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS a
WHERE NOT a.special
GROUP BY a.height_diff
ORDER BY a.height_diff;
