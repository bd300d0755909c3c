-- 004_projections_own_faction: proj_placements.own_faction = the card belongs to the placing army's faction
-- (army = the card id's faction part), precomputed so the per-card statistics need no string work per row.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
ALTER TABLE proj_placements ADD COLUMN own_faction BOOLEAN;
UPDATE proj_placements SET own_faction = (army = split_part(card, '/', 1));
