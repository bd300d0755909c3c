-- update_metadata: shallow merge of a patch (a JSON object) into the stream's metadata; no row if the stream does not
-- exist.
-- parameters: $game_id (the stream's id), $patch (JSON text)
-- output: stream_id
UPDATE streams SET metadata = metadata || $patch::JSONB, changed_xid = pg_current_xact_id()
WHERE stream_id = $game_id
RETURNING stream_id;
