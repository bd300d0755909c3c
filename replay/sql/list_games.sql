-- list_games: one page of games ordered by (created_at, game_id), after a cursor position, with optional filters.
-- parameters: $system, $player, $tournament, $army, $over (NULL = any; $army: a seat's label in metadata.armies;
--             $over: true, the games whose metadata.status is 'over', false the others);
--             $after_created_at, $after_game_id ('' = from the start);
--             $limit (the caller asks one more row than the page to know whether another page follows)
-- output: game_id, system, created_at, players, tournament, metadata, last_seq
SELECT game_id, system, created_at, players, tournament, metadata, last_seq
FROM games
WHERE ($system::VARCHAR IS NULL OR system = $system::VARCHAR)
  AND ($player::VARCHAR IS NULL OR list_contains(players, $player::VARCHAR))
  AND ($tournament::VARCHAR IS NULL OR tournament = $tournament::VARCHAR)
  AND ($army::VARCHAR IS NULL OR coalesce(list_contains(json_extract_string(metadata, '$.armies.*'), $army::VARCHAR), false))
  AND ($over::BOOLEAN IS NULL OR (coalesce(json_extract_string(metadata, '$.status'), '') = 'over') = $over::BOOLEAN)
  AND (created_at > $after_created_at::VARCHAR
       OR (created_at = $after_created_at::VARCHAR AND game_id > $after_game_id::VARCHAR))
ORDER BY created_at, game_id
LIMIT $limit;
