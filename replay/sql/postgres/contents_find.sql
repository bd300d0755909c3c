-- contents_find: the stored games with this content hash (refresh the table first: contents_*).
-- parameters: $content_hash
-- output: game_id, in order of game_id
SELECT c.game_id FROM game_contents AS c WHERE c.content_hash = $content_hash ORDER BY c.game_id;
