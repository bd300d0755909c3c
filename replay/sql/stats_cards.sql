-- stats_cards: per card over finished games: placements and their fate, kills, shots, and the results of the
-- seats that placed it against the seats of the card's faction that did not.
-- parameters: $system, $date_from, $date_to (DATE, inclusive, on the day the game started), $tournament, $variant,
--   $rules_version (each NULL = any), $army (NULL = any; else cards placed by that army), $min_games (cards placed in fewer
--   games are left out)
-- output: card, faction, placements, kills, shot_kills, shots, shots_killing, destroyed, recalled, games_placed,
--   wins_placed, faction_placed, faction_placed_wins, faction_games, faction_wins
--   (games_* count seats (game, player) that placed the card at least once; faction_*: seats whose army is the
--   card's faction, which is the population "placed vs not placed" compares within)
WITH cards AS (
    SELECT c.card, count(*) AS placements, sum(c.kills) AS kills,
           sum(c.shot_kills) AS shot_kills, sum(c.shots) AS shots, sum(c.shots_killing) AS shots_killing,
           count_if(c.fate = 'destroyed') AS destroyed, count_if(c.fate = 'recalled') AS recalled,
           count_if(c.first_of_card) AS games_placed, count_if(c.first_of_card AND c.result = 'win') AS wins_placed,
           count_if(c.first_of_card AND c.own_faction) AS faction_placed,
           count_if(c.first_of_card AND c.own_faction AND c.result = 'win') AS faction_placed_wins
    FROM proj_placements AS c
    WHERE c.result IS NOT NULL
    AND c.system = $system
    AND ($date_from::DATE IS NULL OR c.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR c.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR c.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR c.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR c.rules_version = $rules_version::VARCHAR)
        AND ($army::VARCHAR IS NULL OR c.army = $army::VARCHAR)
    GROUP BY c.card
    HAVING count_if(c.first_of_card) >= $min_games
), factions AS (
    SELECT p.army AS faction, count(*) AS faction_games, count_if(p.result = 'win') AS faction_wins
    FROM proj_players AS p
    WHERE p.finished AND p.result IS NOT NULL
    AND p.system = $system
    AND ($date_from::DATE IS NULL OR p.played_on >= $date_from::DATE)
    AND ($date_to::DATE IS NULL OR p.played_on <= $date_to::DATE)
    AND ($tournament::VARCHAR IS NULL OR p.tournament = $tournament::VARCHAR)
    AND ($variant::VARCHAR IS NULL OR p.variant = $variant::VARCHAR)
    AND ($rules_version::VARCHAR IS NULL OR p.rules_version = $rules_version::VARCHAR)
    GROUP BY p.army
)
SELECT cards.card, split_part(cards.card, '/', 1) AS faction, cards.placements, cards.kills, cards.shot_kills, cards.shots, cards.shots_killing,
       cards.destroyed, cards.recalled, cards.games_placed, cards.wins_placed, cards.faction_placed,
       cards.faction_placed_wins,
       coalesce(factions.faction_games, 0) AS faction_games, coalesce(factions.faction_wins, 0) AS faction_wins
FROM cards
LEFT JOIN factions ON factions.faction = split_part(cards.card, '/', 1)
ORDER BY cards.card;
