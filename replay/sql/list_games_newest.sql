-- list_games_newest: list_games the other way round: newest first, ordered by (created_at, game_id) descending,
-- before a cursor position, with optional filters.
-- parameters: $system, $player, $tournament, $army, $over (NULL = any; $army: a seat's label in metadata.armies;
--             $over: true, the games whose metadata.status is 'over', false the others);
--             $after_created_at, $after_game_id (the cursor's position; '' = from the newest);
--             $limit (the caller asks one more row than the page to know whether another page follows)
-- output: game_id, system, created_at, players, tournament, metadata, last_seq
SELECT game_id, system, created_at, players, tournament, metadata, last_seq
FROM games
WHERE ($system::VARCHAR IS NULL OR system = $system::VARCHAR)
  AND ($player::VARCHAR IS NULL OR list_contains(players, $player::VARCHAR))
  AND ($tournament::VARCHAR IS NULL OR tournament = $tournament::VARCHAR)
  AND ($army::VARCHAR IS NULL OR coalesce(list_contains(json_extract_string(metadata, '$.armies.*'), $army::VARCHAR), false))
  AND ($over::BOOLEAN IS NULL OR (coalesce(json_extract_string(metadata, '$.status'), '') = 'over') = $over::BOOLEAN)
  AND ($after_created_at::VARCHAR = ''
       OR created_at < $after_created_at::VARCHAR
       OR (created_at = $after_created_at::VARCHAR AND game_id < $after_game_id::VARCHAR))
ORDER BY created_at DESC, game_id DESC
LIMIT $limit;
