-- update_metadatas: replace the metadata of some streams (the writer has merged the patches).
-- parameters: $game_ids (VARCHAR[]: the streams' ids), $metadatas (VARCHAR[] of JSON objects), zipped pairwise
-- output: none
UPDATE streams
SET metadata = merged.metadata
FROM (SELECT unnest($game_ids::VARCHAR[]) AS stream_id, unnest($metadatas::VARCHAR[]) AS metadata) AS merged
WHERE streams.stream_id = merged.stream_id;
