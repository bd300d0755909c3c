-- contents_delete_stale: drop the content rows of games that have had events since they were hashed.
-- parameters: none
-- output: none
DELETE FROM game_contents
WHERE game_id IN (
    SELECT c.game_id FROM game_contents AS c JOIN games AS g ON g.game_id = c.game_id WHERE g.last_seq <> c.last_seq
);
