-- annotation_list: a game's annotations in the order they were added.
-- parameters: $game_id
-- output: game_id, n, step, text, role, author, created_at
SELECT game_id, n, step, text, role, author, created_at
FROM annotations
WHERE game_id = $game_id
ORDER BY n;
