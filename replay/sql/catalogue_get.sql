-- catalogue_get: one stored catalogue.
-- parameters: $catalogue_id
-- output: catalogue_id, system, name, version, document, created_at
SELECT catalogue_id, system, name, version, document, created_at
FROM catalogues
WHERE catalogue_id = $catalogue_id;
