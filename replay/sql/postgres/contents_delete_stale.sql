-- contents_delete_stale: drop the content rows of games that have had events since they were hashed.
-- parameters: none
-- output: none
DELETE FROM game_contents AS c
USING games AS g
WHERE g.game_id = c.game_id AND g.last_seq <> c.last_seq;
