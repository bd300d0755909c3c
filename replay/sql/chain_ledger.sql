-- chain_ledger: the ledger of the game systems' own migration chains (replay/<system>/sql/migrations), beside
-- schema_migrations (the shared chain's). Safe to run on every start.
-- parameters: none
-- output: none
CREATE TABLE IF NOT EXISTS system_migrations (
    chain      VARCHAR NOT NULL,   -- the chain's name: the game system's
    version    INTEGER NOT NULL,
    name       VARCHAR NOT NULL,
    applied_at VARCHAR NOT NULL,
    PRIMARY KEY (chain, version)
);
