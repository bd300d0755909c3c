-- stats_elo_table: the overall Elo leaderboard from the stored pass (no filter but the system).
-- parameters: $system, $min_games, $limit (NULL = all)
-- output: player, rating, games, wins, losses, draws, peak, last_played
SELECT player, rating, games, wins, losses, draws, peak, last_played
FROM proj_elo_players
WHERE system = $system AND games >= $min_games
ORDER BY rating DESC, player
LIMIT $limit::BIGINT;
