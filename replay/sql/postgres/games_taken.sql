-- games_taken: which of these ids a stream of any kind has already (a bulk import refuses them).
-- parameters: $game_ids (TEXT[])
-- output: stream_id
SELECT stream_id FROM streams WHERE stream_id = ANY($game_ids::TEXT[]) ORDER BY stream_id LIMIT 1;
