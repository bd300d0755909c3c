-- tournament_list: tournament ids in creation order.
-- parameters: $limit
-- output: tournament_id
SELECT tournament_id FROM tournaments ORDER BY created_at, tournament_id LIMIT $limit;
