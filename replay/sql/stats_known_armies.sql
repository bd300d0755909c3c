-- stats_known_armies: the army names played in any projected game of a system (finished or not), for telling a
-- user which `army` filters exist.
-- parameters: $system
-- output: army
SELECT DISTINCT p.army
FROM proj_players AS p
WHERE p.system = $system
ORDER BY p.army;
