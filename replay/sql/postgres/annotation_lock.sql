-- annotation_lock: hold the game's annotation numbering until the transaction ends, so that writers adding
-- annotations to the same game at once take the next numbers one after another.
-- parameters: $game_id
-- output: one row (the lock is held)
SELECT pg_advisory_xact_lock(hashtextextended('warlog-annotations:' || $game_id::TEXT, 0));
