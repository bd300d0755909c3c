-- catalogue_list: the stored catalogues, of one system or every one, oldest first.
-- parameters: $system ('' = every system)
-- output: catalogue_id, system, name, version, document, created_at
SELECT catalogue_id, system, name, version, document, created_at
FROM catalogues
WHERE $system = '' OR system = $system
ORDER BY created_at, catalogue_id;
