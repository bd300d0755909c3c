-- stats_l5r_battles: battle outcomes by the attacking force minus the defending force (-10 and 10 taking
-- everything beyond), with the provinces that fell.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: difference, battles, attacker_wins, defender_wins, ties, nothing, provinces_destroyed
SELECT greatest(-10, least(10, b.difference)) AS difference, count(*) AS battles,
       count(*) FILTER (WHERE b.winner = 'attacker') AS attacker_wins,
       count(*) FILTER (WHERE b.winner = 'defender') AS defender_wins,
       count(*) FILTER (WHERE b.winner = 'tie') AS ties,
       count(*) FILTER (WHERE b.winner = 'none') AS nothing,
       count(*) FILTER (WHERE b.province_destroyed) AS provinces_destroyed
FROM game_rows('l5r_battles', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS b
GROUP BY 1
ORDER BY 1;
