-- stats_teams: the results of the sides of Lords of War games of three to six seats (§10), one row per variant label
-- (three-players, teams-4, teams-6, with their options) and team (solo, allies; odd, even): a team's game counts
-- once, by its first seat's row (its seats share the result). Games decided by the rules only (adjudicated ones are
-- the core statistics' business: `ending`).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $min_games (rows with fewer games are left out),
--   $catalogue (a catalogue id: only the games played on it; NULL = any)
-- output: variant, team, seats (the team's seats, e.g. 'p1 p3'), games, wins, losses, draws
SELECT s.variant, s.team, string_agg(DISTINCT s.seat, ' ' ORDER BY s.seat) AS seats,
       count(DISTINCT s.game_id) AS games,
       count(DISTINCT s.game_id) FILTER (WHERE s.result = 'win') AS wins,
       count(DISTINCT s.game_id) FILTER (WHERE s.result = 'loss') AS losses,
       count(DISTINCT s.game_id) FILTER (WHERE s.result = 'draw') AS draws
FROM core_rows('proj_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version, 'rules',
              catalogue_is := $catalogue) AS s
WHERE s.finished AND s.result IS NOT NULL AND s.team IS NOT NULL
GROUP BY s.variant, s.team
HAVING count(DISTINCT s.game_id) >= $min_games
ORDER BY s.variant, min(s.seat_index);
