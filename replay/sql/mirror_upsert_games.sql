-- mirror_upsert_games: games rows copied from the PostgreSQL log into the analytics mirror (replay/analytics/
-- beside.py): new games are inserted, known ones take the log's metadata and last seq.
-- parameters: $game_ids, $systems, $created_ats, $players, $tournaments, $metadatas, $last_seqs (lists, one element
--   per game, no id twice)
-- output: none
INSERT INTO streams (stream_id, kind, system, created_at, players, tournament, metadata, last_seq)
SELECT
    unnest($game_ids::VARCHAR[]),
    'game',
    unnest($systems::VARCHAR[]),
    unnest($created_ats::VARCHAR[]),
    unnest($players::VARCHAR[][]),
    unnest($tournaments::VARCHAR[]),
    unnest($metadatas::VARCHAR[]),
    unnest($last_seqs::BIGINT[])
ON CONFLICT (stream_id) DO UPDATE SET metadata = excluded.metadata, last_seq = excluded.last_seq,
    tournament = excluded.tournament;
