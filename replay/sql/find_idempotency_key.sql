-- find_idempotency_key: what one keyed append stored. No row: the stream does not exist; first_seq NULL: key unseen.
-- parameters: $game_id (the stream's id), $key
-- output: first_seq, last_seq
SELECT k.first_seq, k.last_seq
FROM streams AS s
LEFT JOIN idempotency_keys AS k ON k.game_id = s.stream_id AND k.key = $key
WHERE s.stream_id = $game_id;
