-- insert_games: bulk insert of new streams, games or of another kind (column lists zipped row by row).
-- parameters: $game_ids (the streams' ids), $kinds, $systems, $created_ats, $players (VARCHAR[][]), $tournaments,
--             $metadatas, $last_seqs
-- output: none
INSERT INTO streams (stream_id, kind, system, created_at, players, tournament, metadata, last_seq)
SELECT
    unnest($game_ids::VARCHAR[]),
    unnest($kinds::VARCHAR[]),
    unnest($systems::VARCHAR[]),
    unnest($created_ats::VARCHAR[]),
    unnest($players::VARCHAR[][]),
    unnest($tournaments::VARCHAR[]),
    unnest($metadatas::VARCHAR[]),
    unnest($last_seqs::BIGINT[]);
