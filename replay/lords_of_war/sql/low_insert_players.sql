-- low_insert_players: bulk upsert of low_players rows (one list per column, zipped row by row).
-- parameters: $game_id, $seat, $player, $army, $opponent, $opponent_army, $went_first, $result, $kills, $commanders, $placements, $recalls, $system, $rules_version, $variant, $tournament, $played_on, $ended_at, $end_reason, $turns, $finished
-- output: none
INSERT OR REPLACE INTO low_players (game_id, seat, player, army, opponent, opponent_army, went_first, result, kills, commanders, placements, recalls, system, rules_version, variant, tournament, played_on, ended_at, end_reason, turns, finished)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($seat::VARCHAR[]),
    unnest($player::VARCHAR[]),
    unnest($army::VARCHAR[]),
    unnest($opponent::VARCHAR[]),
    unnest($opponent_army::VARCHAR[]),
    unnest($went_first::BOOLEAN[]),
    unnest($result::VARCHAR[]),
    unnest($kills::BIGINT[]),
    unnest($commanders::BIGINT[]),
    unnest($placements::INTEGER[]),
    unnest($recalls::INTEGER[]),
    unnest($system::VARCHAR[]),
    unnest($rules_version::VARCHAR[]),
    unnest($variant::VARCHAR[]),
    unnest($tournament::VARCHAR[]),
    unnest($played_on::DATE[]),
    unnest($ended_at::VARCHAR[]),
    unnest($end_reason::VARCHAR[]),
    unnest($turns::INTEGER[]),
    unnest($finished::BOOLEAN[]);
