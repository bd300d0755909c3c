-- 004_catalogues: the catalogues users bring (issue 30), as the DuckDB store's shared migration 015: a system's game
-- data as one JSON document addressed by the hash of its content, never changed once stored. `document` is the
-- canonical JSON text (TEXT, not JSONB: the bytes the id hashes are kept as they are).
-- parameters: none
-- output: none
CREATE TABLE catalogues (
    catalogue_id TEXT COLLATE "C" PRIMARY KEY,
    system       TEXT NOT NULL,
    name         TEXT NOT NULL,
    version      TEXT NOT NULL,
    document     TEXT NOT NULL,
    created_at   TEXT COLLATE "C" NOT NULL
);
