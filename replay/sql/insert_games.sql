-- insert_games: bulk insert of new games (column lists zipped row by row).
-- parameters: $game_ids, $systems, $created_ats, $players (VARCHAR[][]), $tournaments, $metadatas, $last_seqs
-- output: none
INSERT INTO games (game_id, system, created_at, players, tournament, metadata, last_seq)
SELECT
    unnest($game_ids::VARCHAR[]),
    unnest($systems::VARCHAR[]),
    unnest($created_ats::VARCHAR[]),
    unnest($players::VARCHAR[][]),
    unnest($tournaments::VARCHAR[]),
    unnest($metadatas::VARCHAR[]),
    unnest($last_seqs::BIGINT[]);
