-- list_games_newest: a page of games in descending (created_at, game_id) order before a cursor, with filters.
-- parameters: $system, $player, $tournament, $army, $over (NULL: any; $over: true, the games whose
--   metadata.status is 'over', false the others), $after_created_at, $after_game_id ('' '': from
--   the newest), $limit
-- output: game_id, system, created_at, players, tournament, metadata (JSON text), last_seq
SELECT game_id, system, created_at, players, tournament, metadata::TEXT, last_seq
FROM games
WHERE ($system::TEXT IS NULL OR system = $system::TEXT)
  AND ($player::TEXT IS NULL OR $player::TEXT = ANY(players))
  AND ($tournament::TEXT IS NULL OR tournament = $tournament::TEXT)
  AND ($army::TEXT IS NULL OR (jsonb_typeof(metadata -> 'armies') = 'object'
       AND EXISTS (SELECT 1 FROM jsonb_each(metadata -> 'armies') AS a WHERE a.value = to_jsonb($army::TEXT))))
  AND ($over::BOOLEAN IS NULL OR (coalesce(metadata ->> 'status', '') = 'over') = $over::BOOLEAN)
  AND ($after_created_at::TEXT = ''
       OR created_at < $after_created_at::TEXT
       OR (created_at = $after_created_at::TEXT AND game_id < $after_game_id::TEXT))
ORDER BY created_at DESC, game_id DESC
LIMIT $limit;
