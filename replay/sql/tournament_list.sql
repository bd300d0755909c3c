-- tournament_list: tournament ids, oldest first.
-- parameters: $limit
-- output: tournament_id
SELECT tournament_id FROM tournaments ORDER BY created_at, tournament_id LIMIT $limit;
