-- proj_insert_seats: bulk upsert of proj_seats rows (one list per column, zipped row by row).
-- parameters: $game_id, $seat, $seat_index, $team, $player, $army, $place, $score, $result, $went_first, $mirror, $seats, $system, $rules_version, $variant, $tournament, $played_on, $ended_at, $end_reason, $turns, $finished, $adjudication
-- output: none
INSERT OR REPLACE INTO proj_seats (game_id, seat, seat_index, team, player, army, place, score, result, went_first, mirror, seats, system, rules_version, variant, tournament, played_on, ended_at, end_reason, turns, finished, adjudication)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($seat::VARCHAR[]),
    unnest($seat_index::INTEGER[]),
    unnest($team::VARCHAR[]),
    unnest($player::VARCHAR[]),
    unnest($army::VARCHAR[]),
    unnest($place::INTEGER[]),
    unnest($score::BIGINT[]),
    unnest($result::VARCHAR[]),
    unnest($went_first::BOOLEAN[]),
    unnest($mirror::BOOLEAN[]),
    unnest($seats::INTEGER[]),
    unnest($system::VARCHAR[]),
    unnest($rules_version::VARCHAR[]),
    unnest($variant::VARCHAR[]),
    unnest($tournament::VARCHAR[]),
    unnest($played_on::DATE[]),
    unnest($ended_at::VARCHAR[]),
    unnest($end_reason::VARCHAR[]),
    unnest($turns::INTEGER[]),
    unnest($finished::BOOLEAN[]),
    unnest($adjudication::VARCHAR[]);
