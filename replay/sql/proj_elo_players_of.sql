-- proj_elo_players_of: the stored ratings of some players (to continue the pass with their new games).
-- parameters: $system, $players (VARCHAR[])
-- output: player, rating, games, wins, losses, draws, peak, last_played
SELECT player, rating, games, wins, losses, draws, peak, last_played
FROM proj_elo_players
WHERE system = $system AND player IN (SELECT unnest($players::VARCHAR[]));
