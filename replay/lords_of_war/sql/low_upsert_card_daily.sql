-- low_upsert_card_daily: add per-card sums (one list per column; the same key may repeat, rows are summed).
-- parameters: $system, $played_on, $tournament, $variant, $rules_version, $army, $card, $won, $placements, $kills,
--   $shot_kills, $shots, $shots_killing, $destroyed, $recalled, $games_placed, $faction_placed
-- output: none
INSERT INTO low_card_daily
SELECT system, played_on, tournament, variant, rules_version, army, card, won, sum(placements), sum(kills),
       sum(shot_kills), sum(shots), sum(shots_killing), sum(destroyed), sum(recalled), sum(games_placed),
       sum(faction_placed)
FROM (
    SELECT unnest($system::VARCHAR[]) AS system, unnest($played_on::DATE[]) AS played_on,
           unnest($tournament::VARCHAR[]) AS tournament, unnest($variant::VARCHAR[]) AS variant,
           unnest($rules_version::VARCHAR[]) AS rules_version, unnest($army::VARCHAR[]) AS army,
           unnest($card::VARCHAR[]) AS card, unnest($won::BOOLEAN[]) AS won,
           unnest($placements::BIGINT[]) AS placements, unnest($kills::BIGINT[]) AS kills,
           unnest($shot_kills::BIGINT[]) AS shot_kills, unnest($shots::BIGINT[]) AS shots,
           unnest($shots_killing::BIGINT[]) AS shots_killing, unnest($destroyed::BIGINT[]) AS destroyed,
           unnest($recalled::BIGINT[]) AS recalled, unnest($games_placed::BIGINT[]) AS games_placed,
           unnest($faction_placed::BIGINT[]) AS faction_placed
)
GROUP BY ALL
ON CONFLICT DO UPDATE SET
    placements = placements + excluded.placements, kills = kills + excluded.kills,
    shot_kills = shot_kills + excluded.shot_kills, shots = shots + excluded.shots,
    shots_killing = shots_killing + excluded.shots_killing, destroyed = destroyed + excluded.destroyed,
    recalled = recalled + excluded.recalled, games_placed = games_placed + excluded.games_placed,
    faction_placed = faction_placed + excluded.faction_placed;
