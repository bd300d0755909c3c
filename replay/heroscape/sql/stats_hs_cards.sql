-- stats_hs_cards: win rate by army card: the seats that fielded each card, their results.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: card, seats, wins, draws, losses
SELECT c.card, count(*) AS seats, count(*) FILTER (WHERE c.result = 'win') AS wins,
       count(*) FILTER (WHERE c.result = 'draw') AS draws, count(*) FILTER (WHERE c.result = 'loss') AS losses
FROM game_rows('hs_cards', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS c
WHERE c.result IS NOT NULL
GROUP BY c.card
ORDER BY c.card;
