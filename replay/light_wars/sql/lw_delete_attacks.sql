-- lw_delete_attacks: the attack rows of some games (finished games that got events again).
-- parameters: $game_ids
-- output: none
DELETE FROM lw_attacks WHERE game_id IN (SELECT unnest($game_ids::VARCHAR[]));
