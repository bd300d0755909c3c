-- stats_matchups: army-vs-army matrix over the opposing seats of finished games, from the row army's side (in a game
-- of more seats each pair of opposing seats counts, won by whoever placed ahead). A mirror cell (an army against
-- itself) counts each pair once, from its earlier seat's side (wins: the earlier seat won), not once from each seat.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = all; else rows or columns with that army), $min_games (cells with fewer
--   games are left out)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: army, opponent_army, games, wins, losses, draws
SELECT o.army, o.opponent_army, count(*) AS games, count_if(o.result = 'win') AS wins,
       count_if(o.result = 'loss') AS losses, count_if(o.result = 'draw') AS draws
FROM core_rows('proj_opponents', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS o
WHERE o.finished AND o.result IS NOT NULL
    AND ($army::VARCHAR IS NULL OR o.army = $army::VARCHAR OR o.opponent_army = $army::VARCHAR)
    AND (o.army <> o.opponent_army
         OR (length(o.seat), o.seat) < (length(o.opponent_seat), o.opponent_seat))
GROUP BY o.army, o.opponent_army
HAVING count(*) >= $min_games
ORDER BY o.army, o.opponent_army;
