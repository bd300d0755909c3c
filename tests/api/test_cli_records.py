from __future__ import annotations

import duckdb

from api.cli import main
from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import Placed
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

LOW = "lords-of-war"


def _db_with_games(tmp_path, seeds=(1, 2)) -> str:
    path = str(tmp_path / "w.duckdb")
    store = DuckDBEventStore(path)
    service = GameService(store)
    for seed in seeds:
        store_events(service, LOW, play_bot_game(seed), f"g{seed}")
    store.close()
    return path


def test_cli_export_import_verify_round_trip(tmp_path, capsys):
    db = _db_with_games(tmp_path)
    assert main(["export", "g1", "--db", db]) == 0
    record = capsys.readouterr().out
    assert '[System "lords-of-war"]' in record and "0. p1 " in record
    assert main(["export", "g2", "--db", db, "--format", "jsonl"]) == 0
    jsonl = capsys.readouterr().out
    (tmp_path / "g1.txt").write_text(record)
    (tmp_path / "g2.jsonl").write_text(jsonl)
    assert main(["import", str(tmp_path / "g1.txt"), str(tmp_path / "g2.jsonl"), "--db", db]) == 1  # stored already
    assert capsys.readouterr().err.count("already stored as") == 2
    assert main(["import", str(tmp_path / "g1.txt"), str(tmp_path / "g2.jsonl"), "--db", db, "--allow-duplicate"]) == 0
    out = capsys.readouterr().out
    assert out.count("imported as") == 2
    assert main(["verify", "--db", db]) == 0
    assert "verified 4 games: 0 divergences" in capsys.readouterr().err


def test_cli_import_reports_line_and_rule_and_stores_nothing(tmp_path, capsys):
    db = _db_with_games(tmp_path, seeds=(3,))
    main(["export", "g3", "--db", db])
    lines = capsys.readouterr().out.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("1. p1 "))
    lines[n] = "1. p1 " + lines[n].split()[2].split("@")[0] + "@G6 draw"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines))
    assert main(["import", str(bad), "--db", db]) == 1
    err = capsys.readouterr().err
    assert f"bad.txt:{n + 1}: contact:" in err
    main(["verify", "--db", db])
    assert "verified 1 games" in capsys.readouterr().err


def test_cli_verify_exits_non_zero_on_tampering_and_forged_events(tmp_path, capsys):
    db = _db_with_games(tmp_path, seeds=(4,))
    conn = duckdb.connect(db)
    conn.execute("UPDATE stream_events SET payload = replace(payload, '\"p1\"', '\"p2\"') "
                 "WHERE stream_id = 'g4' AND seq = 4")
    conn.close()
    store = DuckDBEventStore(db)
    events = play_bot_game(5)
    i = next(i for i, e in enumerate(events) if isinstance(e, Placed) and e.basis == "contact")
    events[i] = Placed(player=events[i].player, card=events[i].card, square=events[i].square, turn=events[i].turn,
                       basis="support")
    store_events(GameService(store), LOW, events, "forged")
    store.close()
    assert main(["verify", "--db", db]) == 1
    out = capsys.readouterr().out
    assert "g4 seq 4: chain:" in out
    assert f"forged seq {i + 1}: rules:" in out


def test_cli_replay_over_a_pipe_prints_every_step(tmp_path, capsys):
    db = _db_with_games(tmp_path, seeds=(6,))
    assert main(["replay", "g6", "--db", db]) == 0
    out = capsys.readouterr().out
    last = len(play_bot_game(6))
    assert f"seq {last}/{last}" in out and "seq 0/" in out
    assert "p1 is dealt 6 cards" in out and "wins" in out
    assert main(["replay", "nope", "--db", db]) == 1


def test_cli_export_of_a_missing_game_or_database_fails(tmp_path, capsys):
    db = _db_with_games(tmp_path, seeds=(1,))
    assert main(["export", "nope", "--db", db]) == 1
    capsys.readouterr()
    assert main(["export", "g1", "--db", str(tmp_path / "none.duckdb")]) == 1
    assert "there is no database at" in capsys.readouterr().err
    assert not (tmp_path / "none.duckdb").exists()
