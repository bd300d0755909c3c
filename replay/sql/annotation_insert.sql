-- annotation_insert: append an annotation to a game's, numbered after the last one (n = the game's count + 1; two
-- writers at once: the primary key refuses the second, which tries again).
-- parameters: $game_id, $step, $text, $role, $author, $created_at
-- output: n
INSERT INTO annotations (game_id, n, step, text, role, author, created_at)
SELECT $game_id, coalesce(max(n), 0) + 1, $step, $text, $role, $author, $created_at
FROM annotations
WHERE game_id = $game_id
RETURNING n;
