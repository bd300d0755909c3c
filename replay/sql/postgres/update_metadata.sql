-- update_metadata: shallow merge of a patch (a JSON object) into the game's metadata; no row if the game does not
-- exist.
-- parameters: $game_id, $patch (JSON text)
-- output: game_id
UPDATE games SET metadata = metadata || $patch::JSONB, changed_xid = pg_current_xact_id()
WHERE game_id = $game_id
RETURNING game_id;
