-- delete_takes: the takes of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM pebbles_takes WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
