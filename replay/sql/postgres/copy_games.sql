-- copy_games: COPY of new games' records (a bulk import), rows written by the store.
-- parameters: none (rows: game_id, system, created_at, players, tournament, metadata, last_seq)
-- output: none
COPY streams (stream_id, system, created_at, players, tournament, metadata, last_seq) FROM STDIN;
