-- stats_army_win_rates: win rate of each army over the seats of finished games, mirror matches (every seat of the
-- game the same army) left out.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $ending (rules | adjudicated | all: games decided
--   by their rules, ended by adjudicate, or both), $army (NULL = every army), $min_games (armies with fewer games are left out)
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: army, games, wins, losses, draws   (rates and Wilson intervals are computed by replay/analytics/stats.py)
SELECT s.army, count(*) AS games, count_if(s.result = 'win') AS wins, count_if(s.result = 'loss') AS losses,
       count_if(s.result = 'draw') AS draws
FROM core_rows('proj_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version, $ending,
              catalogue_is := $catalogue) AS s
WHERE s.finished AND s.result IS NOT NULL AND NOT s.mirror
    AND ($army::VARCHAR IS NULL OR s.army = $army::VARCHAR)
GROUP BY s.army
HAVING count(*) >= $min_games
ORDER BY s.army;
