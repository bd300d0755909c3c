-- games_taken: which of these ids are games already (a bulk import refuses them).
-- parameters: $game_ids (TEXT[])
-- output: game_id
SELECT game_id FROM games WHERE game_id = ANY($game_ids::TEXT[]) ORDER BY game_id LIMIT 1;
