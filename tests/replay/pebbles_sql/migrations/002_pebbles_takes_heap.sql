-- 002_pebbles_takes_heap: the heap before each take (a second migration of the chain: applied after the first, once).
-- parameters: none
-- output: none
ALTER TABLE pebbles_takes ADD COLUMN heap INTEGER;
