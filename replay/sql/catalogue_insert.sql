-- catalogue_insert: store a catalogue unless one of that id is stored (catalogues are immutable).
-- parameters: $catalogue_id, $system, $name, $version, $document (canonical JSON text), $created_at
-- output: catalogue_id (no row: the catalogue was already stored)
INSERT INTO catalogues (catalogue_id, system, name, version, document, created_at)
VALUES ($catalogue_id, $system, $name, $version, $document, $created_at)
ON CONFLICT DO NOTHING
RETURNING catalogue_id;
