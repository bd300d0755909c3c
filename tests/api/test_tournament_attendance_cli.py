"""Issue 31 item 9 (items 1 and 2's part): ``warlog tournament unregister | checkin | late | drop | swap | pair`` on
a database file, and through a running ``warlog serve`` that holds it, as the other tournament commands work."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from api.cli import main
from tests.serving import served
from tests.serving import warlog as _warlog

PLAYERS = (("ann", "orcs"), ("ben", "dwarves"), ("cat", "elves"), ("dan", "undead"), ("eve", "templars"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_i31_cli_attendance_swap_and_pair_on_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "day.duckdb")
    code, out, _ = run(capsys, "tournament", "create", "--db", db, "--name", "Club day", "--rounds", "3",
                       "--check-in", "--seeding", "registration")
    assert code == 0
    tid = out.split()[1]
    for player, army in PLAYERS:
        assert run(capsys, "tournament", "register", tid, player, "--army", army, "--db", db)[0] == 0
    code, out, _ = run(capsys, "tournament", "unregister", tid, "eve", "--reason", "ill", "--db", db)
    assert code == 0 and out.strip() == "unregistered eve (eve)"
    for player in ("ann", "ben", "cat"):
        code, out, _ = run(capsys, "tournament", "checkin", tid, player, "--db", db)
        assert code == 0 and out.strip() == f"checked in {player} ({player})"
    code, out, _ = run(capsys, "tournament", "round", tid, "--json", "--db", db)
    started = json.loads(out)
    assert [t["seats"] for t in started["tables"]] == [{"p1": "ann", "p2": "ben"}] and started["byes"] == ["cat"]
    code, _, err = run(capsys, "tournament", "checkin", tid, "dan", "--db", db)
    assert code == 1 and "check_in_closed" in err
    code, _, err = run(capsys, "tournament", "unregister", tid, "ann", "--db", db)
    assert code == 1 and "unregister_closed" in err
    code, _, err = run(capsys, "tournament", "swap", tid, "1", "ann", "cat", "--db", db)
    assert code == 1 and "reason_required" in err
    code, out, _ = run(capsys, "tournament", "swap", tid, "1", "ann", "cat", "--reason", "ann arrived late", "--db",
                       db)
    assert code == 0 and "table 1: cat (p1) vs ben (p2)" in out and "bye: ann" in out
    code, out, _ = run(capsys, "tournament", "pair", tid, "1", "--reason", "as drawn", "--json", "--db", db)
    assert code == 0 and json.loads(out)["byes"] == ["cat"], "re-paired by the rules: the bye to the last"
    code, out, _ = run(capsys, "tournament", "late", tid, "dan", "--missed", "bye", "--db", db)
    assert code == 0 and out.strip() == "registered dan (dan) late: paired from round 2; 1 missed round counts as a bye"
    with pytest.raises(SystemExit) as usage:  # the missed rounds' count is the organiser's choice: required
        main(["tournament", "late", tid, "fay", "--db", db])
    assert usage.value.code == 2 and "--missed" in capsys.readouterr().err
    assert run(capsys, "tournament", "result", tid, "1", "1", "--winner", "p1", "--db", db)[0] == 0
    code, out, _ = run(capsys, "tournament", "drop", tid, "ben", "--reason", "train", "--db", db)
    assert code == 0 and out.strip() == "dropped ben (ben) after round 1: paired no more, results kept"
    code, _, err = run(capsys, "tournament", "drop", tid, "ben", "--db", db)
    assert code == 1 and "already_dropped" in err
    code, out, _ = run(capsys, "tournament", "round", tid, "--json", "--db", db)
    second = json.loads(out)
    paired = [p for t in second["tables"] for p in t["seats"].values()] + second["byes"]
    assert sorted(paired) == ["ann", "cat", "dan"], "the dropped paired no more, the late entrant paired"
    code, out, _ = run(capsys, "tournament", "standings", tid, "--json", "--db", db)
    rows = {r["player"]: r for r in json.loads(out)}
    assert rows["ben"]["dropped_after"] == 1 and rows["dan"]["byes"] == 1 and "eve" not in rows


def test_i31_cli_attendance_goes_through_a_running_server(tmp_path: Path) -> None:
    db = tmp_path / "served.duckdb"
    created = _warlog("tournament", "create", "--db", str(db), "--name", "Served day", "--rounds", "2",
                      "--check-in")
    assert created.returncode == 0, created.stderr
    tid = created.stdout.split()[1]
    with served(db) as port:
        url = f"http://127.0.0.1:{port}/tournaments/{tid}"
        for player, army in PLAYERS[:4]:
            assert _warlog("tournament", "register", tid, player, "--army", army, "--db", str(db)).returncode == 0
            assert _warlog("tournament", "checkin", tid, player, "--db", str(db)).returncode == 0
        seen = httpx.get(url, timeout=30).json()
        assert [p["checked_in"] for p in seen["players"]] == [True] * 4, "the server sees the check-ins"
        started = json.loads(_warlog("tournament", "round", tid, "--json", "--db", str(db)).stdout)
        one, two = started["tables"]
        swap = _warlog("tournament", "swap", tid, "1", one["p1"], two["p1"], "--reason", "clubmates", "--json",
                       "--db", str(db))
        assert swap.returncode == 0, swap.stderr
        pair = _warlog("tournament", "pair", tid, "1", "--reason", "undo the swap", "--db", str(db))
        assert pair.returncode == 0, pair.stderr
        late = _warlog("tournament", "late", tid, "eve", "--missed", "loss", "--army", "templars", "--db", str(db))
        assert late.returncode == 0, late.stderr
        drop = _warlog("tournament", "drop", tid, one["p2"], "--db", str(db))
        assert drop.returncode == 0, drop.stderr
        refused = _warlog("tournament", "drop", tid, one["p2"], "--db", str(db))
        assert refused.returncode == 1 and "already_dropped" in refused.stderr
        seen = httpx.get(url, timeout=30).json()
        players = {p["id"]: p for p in seen["players"]}
        assert players["eve"]["joined"] == 2 and players["eve"]["missed"] == "loss"
        assert players[one["p2"]]["dropped_after"] == 1
        kinds = [e["type"] for e in httpx.get(f"http://127.0.0.1:{port}/local/tournaments/{tid}/events",
                                              timeout=30, headers=_local_key(db)).json()]
        assert kinds.count("players_swapped") == 1 and kinds.count("round_repaired") == 1


def _local_key(db: Path) -> dict[str, str]:
    from api.remote import KEY_HEADER, sidecar_path

    return {KEY_HEADER: json.loads(sidecar_path(str(db)).read_text())["key"]}
