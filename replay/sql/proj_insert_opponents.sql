-- proj_insert_opponents: bulk upsert of proj_opponents rows (one list per column, zipped row by row).
-- parameters: $game_id, $seat, $opponent_seat, $player, $opponent, $army, $opponent_army, $result, $system, $rules_version, $variant, $tournament, $played_on, $finished, $adjudication
-- output: none
INSERT OR REPLACE INTO proj_opponents (game_id, seat, opponent_seat, player, opponent, army, opponent_army, result, system, rules_version, variant, tournament, played_on, finished, adjudication)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($seat::VARCHAR[]),
    unnest($opponent_seat::VARCHAR[]),
    unnest($player::VARCHAR[]),
    unnest($opponent::VARCHAR[]),
    unnest($army::VARCHAR[]),
    unnest($opponent_army::VARCHAR[]),
    unnest($result::VARCHAR[]),
    unnest($system::VARCHAR[]),
    unnest($rules_version::VARCHAR[]),
    unnest($variant::VARCHAR[]),
    unnest($tournament::VARCHAR[]),
    unnest($played_on::DATE[]),
    unnest($finished::BOOLEAN[]),
    unnest($adjudication::VARCHAR[]);
