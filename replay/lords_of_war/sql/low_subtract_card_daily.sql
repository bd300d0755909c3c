-- low_subtract_card_daily: take some games' placements out of low_card_daily (before their fact rows are
-- deleted; only when a finished game gets events again).
-- parameters: $game_ids (VARCHAR[])
-- output: none
INSERT INTO low_card_daily
SELECT system, played_on, coalesce(tournament, ''), coalesce(variant, ''), coalesce(rules_version, ''), army, card,
       result = 'win', -count(*), -sum(kills), -sum(shot_kills), -sum(shots), -sum(shots_killing),
       -count_if(fate = 'destroyed'), -count_if(fate = 'recalled'), -count_if(first_of_card),
       -count_if(first_of_card AND own_faction)
FROM low_placements
WHERE result IS NOT NULL AND game_id IN (SELECT unnest($game_ids::VARCHAR[]))
GROUP BY ALL
ON CONFLICT DO UPDATE SET
    placements = placements + excluded.placements, kills = kills + excluded.kills,
    shot_kills = shot_kills + excluded.shot_kills, shots = shots + excluded.shots,
    shots_killing = shots_killing + excluded.shots_killing, destroyed = destroyed + excluded.destroyed,
    recalled = recalled + excluded.recalled, games_placed = games_placed + excluded.games_placed,
    faction_placed = faction_placed + excluded.faction_placed;
