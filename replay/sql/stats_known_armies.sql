-- stats_known_armies: the army labels of any projected seat of a system (finished game or not), for telling a user
-- which `army` filters exist.
-- parameters: $system
-- output: army
SELECT DISTINCT s.army
FROM proj_seats AS s
WHERE s.system = $system
ORDER BY s.army;
