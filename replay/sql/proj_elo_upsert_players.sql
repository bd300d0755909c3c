-- proj_elo_upsert_players: store players' ratings after a pass (one list per column).
-- parameters: $system, $player, $rating, $games, $wins, $losses, $draws, $peak, $last_played
-- output: none
INSERT OR REPLACE INTO proj_elo_players (system, player, rating, games, wins, losses, draws, peak, last_played)
SELECT $system, unnest($player::VARCHAR[]), unnest($rating::DOUBLE[]), unnest($games::BIGINT[]),
       unnest($wins::BIGINT[]), unnest($losses::BIGINT[]), unnest($draws::BIGINT[]), unnest($peak::DOUBLE[]),
       unnest($last_played::VARCHAR[]);
