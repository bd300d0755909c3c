"""The tournament day from the console (issue 31 item 9): ``warlog tournament report | correct | clock | cut |
export`` and ``round --duration``, on the file and beside a running ``warlog serve`` (through it)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import httpx
import pytest

from api.cli import main
from tests.api.test_cli_writes_served import warlog
from tests.serving import free_port, serve, stop


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(["tournament", *args])
    except SystemExit as exit:  # a usage error
        status = int(exit.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_cli_reports_corrects_clocks_cuts_and_exports_a_tournament(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "day.duckdb")
    assert _run(capsys, "create", "--db", db, "--name", "x", "--rounds", "1", "--tiebreaks", "coin")[0] == 2
    status, out, _ = _run(capsys, "create", "--db", db, "--name", "Club night", "--rounds", "1",
                          "--tiebreaks", "match_points", "head_to_head", "--cut-draws", "time_rule")
    tid = out.split()[1]
    for name, army in (("ann", "orcs"), ("ben", "dwarves"), ("cat", "elves"), ("dan", "undead")):
        assert _run(capsys, "register", tid, name, "--army", army, "--db", db)[0] == 0
    status, out, _ = _run(capsys, "round", tid, "--duration", "90", "--json", "--db", db)
    assert status == 0 and len(json.loads(out)["tables"]) == 2
    status, out, _ = _run(capsys, "clock", tid, "--db", db)
    assert status == 0 and re.match(r"round 1: started \S+, 90 min, deadline \S+, (89:5\d|90:00) left", out), out
    status, out, _ = _run(capsys, "report", tid, "1", "1", "--winner", "p1", "--scores", "4", "1", "--db", db)
    assert (status, out.strip()) == (0, "round 1 table 1: p1 (forfeit)")
    # a correction needs a reason: on the command line (exit 2) and in words (exit 1, the rule's code)
    assert _run(capsys, "correct", tid, "1", "1", "--winner", "p2", "--db", db)[0] == 2
    status, _, err = _run(capsys, "correct", tid, "1", "1", "--winner", "p2", "--reason", " ", "--db", db)
    assert status == 1 and "reason_required" in err
    status, out, _ = _run(capsys, "correct", tid, "1", "1", "--winner", "p2", "--reason", "sheet misread",
                          "--db", db)
    assert (status, out.strip()) == (0, "round 1 table 1: p2 (corrected; was p1): sheet misread")
    status, out, _ = _run(capsys, "clock", tid, "--call", "--db", db)
    assert status == 0 and "tables 2 ended by the time rule" in out
    status, _, err = _run(capsys, "clock", tid, "1", "--call", "--db", db)
    assert status == 1 and "time_already_called" in err
    status, out, _ = _run(capsys, "clock", tid, "1", "--json", "--db", db)
    assert json.loads(out)[0]["time_called"]["by"] == "organiser"
    # the cut: refused larger than the field, then the top 2 with the first seed going second
    status, _, err = _run(capsys, "cut", tid, "--size", "8", "--db", db)
    assert status == 1 and "cut_larger_than_field" in err
    status, out, _ = _run(capsys, "standings", tid, "--json", "--db", db)
    seeds = [r["player"] for r in json.loads(out)][:2]
    assert [tb["name"] for tb in json.loads(out)[0]["tiebreaks"]] == ["match_points", "head_to_head"]
    status, out, _ = _run(capsys, "standings", tid, "--db", db)
    assert out.splitlines()[-1] == "tie-breaks, in order: match_points, head_to_head (values: --json)"
    status, out, _ = _run(capsys, "cut", tid, "--size", "2", "--second", seeds[0], "--json", "--db", db)
    final = json.loads(out)["tables"][0]
    assert status == 0 and (final["p1"], final["p2"]) == (seeds[1], seeds[0])
    assert _run(capsys, "report", tid, "2", "1", "--winner", "p2", "--db", db)[0] == 0
    status, out, _ = _run(capsys, "cut", tid, "--db", db)
    assert status == 0 and f"champion: {seeds[0]}" in out and "bracket round 1 match 1" in out
    assert "top 2, drawn games: time_rule" in out
    # exports, to the console and to a file
    status, out, _ = _run(capsys, "export", tid, "--what", "results", "--db", db)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and rows[0]["status"] == "corrected" and rows[0]["correction_reason"] == "sheet misread"
    path = tmp_path / "standings.json"
    assert _run(capsys, "export", tid, "--format", "json", "--out", str(path), "--db", db)[0] == 0
    assert len(json.loads(path.read_text(encoding="utf-8"))["rows"]) == 4
    assert _run(capsys, "export", tid, "--what", "armies", "--db", db)[0] == 2


def test_cli_day_commands_work_through_a_running_server(tmp_path: Path) -> None:
    db = tmp_path / "served.duckdb"
    port = free_port()
    server = serve(db, port)
    try:
        made = warlog("tournament", "create", "--db", str(db), "--name", "Served", "--rounds", "1")
        assert made.returncode == 0, made.stderr
        tid = made.stdout.split()[1]
        for name, army in (("ann", "orcs"), ("ben", "dwarves")):
            assert warlog("tournament", "register", tid, name, "--army", army, "--db", str(db)).returncode == 0
        assert warlog("tournament", "round", tid, "--duration", "30", "--db", str(db)).returncode == 0
        reported = warlog("tournament", "report", tid, "1", "1", "--winner", "p1", "--db", str(db))
        assert reported.returncode == 0, reported.stderr
        corrected = warlog("tournament", "correct", tid, "1", "1", "--winner", "draw", "--reason", "judge call",
                           "--db", str(db))
        assert corrected.returncode == 0, corrected.stderr
        late = warlog("tournament", "clock", tid, "--call", "--db", str(db))
        assert late.returncode == 1 and "round_over" in late.stderr  # its one table has its result
        cut = warlog("tournament", "cut", tid, "--size", "2", "--db", str(db))
        assert cut.returncode == 0, cut.stderr
        exported = warlog("tournament", "export", tid, "--what", "pairings", "--format", "json", "--db", str(db))
        assert exported.returncode == 0 and len(json.loads(exported.stdout)["rows"]) == 4
        # the server holds what the commands wrote
        url = f"http://127.0.0.1:{port}/tournaments/{tid}"
        seen = httpx.get(url, timeout=30).json()
        table = seen["played_rounds"][0]["tables"][0]
        assert table["status"] == "corrected" and table["winner"] == "draw"
        assert seen["played_rounds"][0]["duration"] == 30 and seen["bracket"]["size"] == 2
        history = httpx.get(f"{url}/history", timeout=30).json()["events"]
        assert [e["data"]["reason"] for e in history if e["type"] == "result_corrected"] == ["judge call"]
    finally:
        stop(server)
