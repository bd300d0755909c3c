-- 015_catalogues: the catalogues users bring (issue 30): a system's game data as one JSON document, addressed by
-- the hash of its content (engine.catalogue.catalogue_id) and never changed once stored. `document` is the
-- canonical JSON text (keys sorted, no whitespace), so the id can be checked against it.
-- parameters: none
-- output: none
CREATE TABLE catalogues (
    catalogue_id VARCHAR PRIMARY KEY,
    system       VARCHAR NOT NULL,
    name         VARCHAR NOT NULL,
    version      VARCHAR NOT NULL,
    document     VARCHAR NOT NULL,
    created_at   VARCHAR NOT NULL
);
