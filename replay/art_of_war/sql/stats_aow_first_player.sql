-- stats_aow_first_player: the first player's results over finished games.
-- parameters: the common filters ($system, $date_from, $date_to, $tournament, $variant, $rules_version)
-- output: games, wins, draws, losses
SELECT count(*) AS games, count(*) FILTER (WHERE s.result = 'win') AS wins,
       count(*) FILTER (WHERE s.result = 'draw') AS draws, count(*) FILTER (WHERE s.result = 'loss') AS losses
FROM stats_rows('aow_seats', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS s
WHERE s.went_first;
