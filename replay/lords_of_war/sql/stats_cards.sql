-- stats_cards: per card over finished games, its copies (ids that differ only by a -N suffix: orc-warhog-1, -2) taken
-- together: placements and their fate, kills, shots (from the per-day sums in low_card_daily), and the results of the
-- seats that placed any copy against the seats of the card's faction that placed none (from low_placements: a seat
-- that placed two copies is one seat).
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else cards placed by that army), $min_games (cards placed in fewer
--   games are left out), $catalogue (a catalogue id: only the games played on it, counted from low_placements, as
--   low_card_daily's sums do not say which catalogue a game played; NULL = any)
-- output: card (the id without its copy suffix), faction, placements, kills, shot_kills, shots, shots_killing,
--   destroyed, recalled, games_placed, wins_placed, faction_placed, faction_placed_wins, faction_games, faction_wins,
--   copies (the ids placed, sorted)
--   (games_* count seats (game, player) that placed the card at least once; faction_*: seats whose army is the
--   card's faction, which is the population "placed vs not placed" compares within)
WITH copies AS (
    SELECT regexp_replace(r.card, '-[0-9]+$', '') AS card, sum(r.placements) AS placements, sum(r.kills) AS kills,
           sum(r.shot_kills) AS shot_kills, sum(r.shots) AS shots, sum(r.shots_killing) AS shots_killing,
           sum(r.destroyed) AS destroyed, sum(r.recalled) AS recalled, list(DISTINCT r.card ORDER BY r.card) AS copies
    FROM stats_rows('low_card_daily', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS r
    WHERE $catalogue::VARCHAR IS NULL AND ($army::VARCHAR IS NULL OR r.army = $army::VARCHAR)
    GROUP BY 1
    HAVING sum(r.placements) > 0
    UNION ALL
    SELECT regexp_replace(p.card, '-[0-9]+$', '') AS card, count(*) AS placements, sum(p.kills) AS kills,
           sum(p.shot_kills) AS shot_kills, sum(p.shots) AS shots, sum(p.shots_killing) AS shots_killing,
           count_if(p.fate = 'destroyed') AS destroyed, count_if(p.fate = 'recalled') AS recalled,
           list(DISTINCT p.card ORDER BY p.card) AS copies
    FROM game_rows('low_placements', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
                   catalogue_is := $catalogue) AS p
    WHERE $catalogue::VARCHAR IS NOT NULL AND p.result IS NOT NULL
        AND ($army::VARCHAR IS NULL OR p.army = $army::VARCHAR)
    GROUP BY 1
), seats AS (
    SELECT regexp_replace(p.card, '-[0-9]+$', '') AS card,
           count(DISTINCT p.game_id || ' ' || p.seat) AS games_placed,
           count(DISTINCT p.game_id || ' ' || p.seat) FILTER (WHERE p.result = 'win') AS wins_placed,
           count(DISTINCT p.game_id || ' ' || p.seat) FILTER (WHERE p.own_faction) AS faction_placed,
           count(DISTINCT p.game_id || ' ' || p.seat) FILTER (WHERE p.own_faction AND p.result = 'win')
               AS faction_placed_wins
    FROM game_rows('low_placements', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS p
    WHERE p.result IS NOT NULL AND ($army::VARCHAR IS NULL OR p.army = $army::VARCHAR)
    GROUP BY 1
), factions AS (
    SELECT p.army AS faction, count(*) AS faction_games, count_if(p.result = 'win') AS faction_wins
    FROM game_rows('low_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version,
              catalogue_is := $catalogue) AS p
    WHERE p.finished AND p.result IS NOT NULL
    GROUP BY p.army
)
SELECT copies.card, split_part(copies.card, '/', 1) AS faction, copies.placements, copies.kills, copies.shot_kills,
       copies.shots, copies.shots_killing, copies.destroyed, copies.recalled, seats.games_placed, seats.wins_placed,
       seats.faction_placed, seats.faction_placed_wins,
       coalesce(factions.faction_games, 0) AS faction_games, coalesce(factions.faction_wins, 0) AS faction_wins,
       copies.copies
FROM copies
JOIN seats ON seats.card = copies.card
LEFT JOIN factions ON factions.faction = split_part(copies.card, '/', 1)
WHERE seats.games_placed >= $min_games
ORDER BY copies.card;
