-- find_idempotency_key: the seqs the append with this key stored (NULLs if the key is unseen); no row if the game
-- does not exist.
-- parameters: $game_id, $key
-- output: first_seq, last_seq
SELECT k.first_seq, k.last_seq
FROM games AS g
LEFT JOIN idempotency_keys AS k ON k.game_id = g.game_id AND k.key = $key
WHERE g.game_id = $game_id;
