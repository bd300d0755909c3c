-- mirror_events: events of some games after the seq the mirror has (each game from its own seq) up to a last seq.
-- parameters: $game_ids, $after_seqs, $to_seqs (arrays, one element per game)
-- output: game_id, seq, type, schema_version, payload, recorded_at, hash
SELECT e.stream_id AS game_id, e.seq, e.type, e.schema_version, e.payload, e.recorded_at, e.hash
FROM unnest($game_ids::TEXT[], $after_seqs::BIGINT[], $to_seqs::BIGINT[]) AS w(game_id, after_seq, to_seq)
JOIN stream_events AS e ON e.stream_id = w.game_id AND e.seq > w.after_seq AND e.seq <= w.to_seq
ORDER BY e.stream_id, e.seq;
