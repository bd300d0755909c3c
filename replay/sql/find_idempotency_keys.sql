-- find_idempotency_keys: which of these (game, key) pairs were seen before, and what they appended.
-- parameters: $game_ids (VARCHAR[]), $keys (VARCHAR[]), zipped pairwise
-- output: game_id, key, first_seq, last_seq
SELECT k.game_id, k.key, k.first_seq, k.last_seq
FROM idempotency_keys AS k
JOIN (SELECT unnest($game_ids::VARCHAR[]) AS game_id, unnest($keys::VARCHAR[]) AS key) AS wanted
  ON k.game_id = wanted.game_id AND k.key = wanted.key;
