-- 005_proj_card_daily: per-card sums by day and filter values, so the card statistics read ~10x fewer rows than
-- proj_placements. Kept by the projector in the same transaction as the placements it sums (exactly once);
-- filled here from the placements already projected.
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (schema_migrations).
-- parameters: none
-- output: none
CREATE TABLE proj_card_daily (
    system              VARCHAR NOT NULL,
    played_on           DATE NOT NULL,
    tournament          VARCHAR NOT NULL,   -- '' = none
    variant             VARCHAR NOT NULL,
    rules_version       VARCHAR NOT NULL,
    army                VARCHAR NOT NULL,   -- the placing army
    card                VARCHAR NOT NULL,
    won                 BOOLEAN NOT NULL,   -- the placing seat won the game
    placements          BIGINT NOT NULL,
    kills               BIGINT NOT NULL,
    shot_kills          BIGINT NOT NULL,
    shots               BIGINT NOT NULL,
    shots_killing       BIGINT NOT NULL,
    destroyed           BIGINT NOT NULL,
    recalled            BIGINT NOT NULL,
    games_placed        BIGINT NOT NULL,    -- first placements of the card by a seat (= seats that placed it)
    faction_placed      BIGINT NOT NULL,    -- of which by an army of the card's faction
    PRIMARY KEY (system, played_on, tournament, variant, rules_version, army, card, won)
);

INSERT INTO proj_card_daily
SELECT system, played_on, coalesce(tournament, ''), coalesce(variant, ''), coalesce(rules_version, ''), army, card,
       result = 'win', count(*), sum(kills), sum(shot_kills), sum(shots), sum(shots_killing),
       count_if(fate = 'destroyed'), count_if(fate = 'recalled'), count_if(first_of_card),
       count_if(first_of_card AND own_faction)
FROM proj_placements
WHERE result IS NOT NULL
GROUP BY ALL;
