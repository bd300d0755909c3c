-- stats_lw_flanks: attacks by the best side they strike from (front, side, rear): how often the attackers win.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: side, attacks, won, margin_sum
SELECT a.side, count(*) AS attacks, count(*) FILTER (WHERE a.won) AS won, sum(a.margin) AS margin_sum
FROM game_rows('lw_attacks', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS a
GROUP BY a.side
ORDER BY CASE a.side WHEN 'front' THEN 0 WHEN 'side' THEN 1 ELSE 2 END;
