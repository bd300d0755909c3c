-- stats_hs_glyphs: glyph control and victory: for each permanent glyph, the seats that held it at some round's
-- end, how many round ends on average, and their results.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: glyph, seats, mean_rounds, wins, losses
SELECT g.glyph, count(*) AS seats, avg(g.rounds) AS mean_rounds, count(*) FILTER (WHERE g.result = 'win') AS wins,
       count(*) FILTER (WHERE g.result = 'loss') AS losses
FROM game_rows('hs_glyphs', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS g
WHERE g.result IS NOT NULL
GROUP BY g.glyph
ORDER BY g.glyph;
