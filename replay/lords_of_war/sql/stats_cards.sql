-- stats_cards: per card over finished games (from the per-day sums in low_card_daily): placements and their fate, kills, shots, and the results of the
-- seats that placed it against the seats of the card's faction that did not.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else cards placed by that army), $min_games (cards placed in fewer
--   games are left out)
-- output: card, faction, placements, kills, shot_kills, shots, shots_killing, destroyed, recalled, games_placed,
--   wins_placed, faction_placed, faction_placed_wins, faction_games, faction_wins
--   (games_* count seats (game, player) that placed the card at least once; faction_*: seats whose army is the
--   card's faction, which is the population "placed vs not placed" compares within)
WITH cards AS (
    SELECT r.card, sum(r.placements) AS placements, sum(r.kills) AS kills, sum(r.shot_kills) AS shot_kills,
           sum(r.shots) AS shots, sum(r.shots_killing) AS shots_killing, sum(r.destroyed) AS destroyed,
           sum(r.recalled) AS recalled, sum(r.games_placed) AS games_placed,
           coalesce(sum(r.games_placed) FILTER (WHERE r.won), 0) AS wins_placed,
           sum(r.faction_placed) AS faction_placed,
           coalesce(sum(r.faction_placed) FILTER (WHERE r.won), 0) AS faction_placed_wins
    FROM stats_rows('low_card_daily', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS r
    WHERE $army::VARCHAR IS NULL OR r.army = $army::VARCHAR
    GROUP BY r.card
    HAVING sum(r.placements) > 0 AND sum(r.games_placed) >= $min_games
), factions AS (
    SELECT p.army AS faction, count(*) AS faction_games, count_if(p.result = 'win') AS faction_wins
    FROM stats_rows('low_players', $system, $date_from, $date_to, $tournament, $variant, $rules_version) AS p
    WHERE p.finished AND p.result IS NOT NULL
    GROUP BY p.army
)
SELECT cards.card, split_part(cards.card, '/', 1) AS faction, cards.placements, cards.kills, cards.shot_kills, cards.shots, cards.shots_killing,
       cards.destroyed, cards.recalled, cards.games_placed, cards.wins_placed, cards.faction_placed,
       cards.faction_placed_wins,
       coalesce(factions.faction_games, 0) AS faction_games, coalesce(factions.faction_wins, 0) AS faction_wins
FROM cards
LEFT JOIN factions ON factions.faction = split_part(cards.card, '/', 1)
ORDER BY cards.card;
