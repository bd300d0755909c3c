-- update_metadatas: replace the metadata of some games (the writer has merged the patches).
-- parameters: $game_ids (VARCHAR[]), $metadatas (VARCHAR[] of JSON objects), zipped pairwise
-- output: none
UPDATE games
SET metadata = merged.metadata
FROM (SELECT unnest($game_ids::VARCHAR[]) AS game_id, unnest($metadatas::VARCHAR[]) AS metadata) AS merged
WHERE games.game_id = merged.game_id;
