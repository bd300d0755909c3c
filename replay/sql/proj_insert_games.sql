-- proj_insert_games: bulk upsert of proj_games rows (one list per column, zipped row by row).
-- parameters: $game_id, $system, $rules_version, $mode, $variant, $intermediate, $unbounded, $kill_target, $command_target, $tournament, $round, $started_at, $ended_at, $played_on, $month, $player_p1, $player_p2, $army_p1, $army_p2, $first_player, $winner, $end_reason, $turns, $finished, $last_seq, $seats, $armies, $adjudication, $catalogue
-- output: none
INSERT OR REPLACE INTO proj_games (game_id, system, rules_version, mode, variant, intermediate, unbounded, kill_target, command_target, tournament, round, started_at, ended_at, played_on, month, player_p1, player_p2, army_p1, army_p2, first_player, winner, end_reason, turns, finished, last_seq, seats, armies, adjudication, catalogue)
SELECT
    unnest($game_id::VARCHAR[]),
    unnest($system::VARCHAR[]),
    unnest($rules_version::VARCHAR[]),
    unnest($mode::VARCHAR[]),
    unnest($variant::VARCHAR[]),
    unnest($intermediate::BOOLEAN[]),
    unnest($unbounded::BOOLEAN[]),
    unnest($kill_target::BIGINT[]),
    unnest($command_target::BIGINT[]),
    unnest($tournament::VARCHAR[]),
    unnest($round::BIGINT[]),
    unnest($started_at::VARCHAR[]),
    unnest($ended_at::VARCHAR[]),
    unnest($played_on::DATE[]),
    unnest($month::VARCHAR[]),
    unnest($player_p1::VARCHAR[]),
    unnest($player_p2::VARCHAR[]),
    unnest($army_p1::VARCHAR[]),
    unnest($army_p2::VARCHAR[]),
    unnest($first_player::VARCHAR[]),
    unnest($winner::VARCHAR[]),
    unnest($end_reason::VARCHAR[]),
    unnest($turns::INTEGER[]),
    unnest($finished::BOOLEAN[]),
    unnest($last_seq::BIGINT[]),
    unnest($seats::INTEGER[]),
    unnest($armies::VARCHAR[][]),
    unnest($adjudication::VARCHAR[]),
    unnest($catalogue::VARCHAR[]);
