"""``warlog catalogue import | list | show | export`` (issue 30), on a database file and beside a running
``warlog serve`` on it (through the server, as ``warlog import`` goes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from engine.catalogue import catalogue_id
from tests.serving import serving

SAMPLE = Path(__file__).parents[1] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_catalogue_import_stores_it_once_and_export_gives_the_same_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "w.duckdb")
    document = json.loads(SAMPLE.read_text(encoding="utf-8"))
    identity = catalogue_id(document)
    status, out, _ = run(capsys, "catalogue", "import", str(SAMPLE), "--db", db)
    assert status == 0 and out == f"{SAMPLE}: imported as {identity} (lords-of-war: Border Marches (warlog sample) " \
                                  "2026.1)\n"
    status, out, _ = run(capsys, "catalogue", "import", str(SAMPLE), "--db", db)
    assert status == 0 and "already stored as" in out
    status, out, _ = run(capsys, "catalogue", "list", "--system", "lords-of-war", "--db", db)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2 and "default" in lines[0] and lines[1].startswith(identity)
    status, out, _ = run(capsys, "catalogue", "export", identity, "--db", db)
    assert status == 0 and json.loads(out) == document
    status, out, _ = run(capsys, "catalogue", "show", identity, "--db", db)
    assert status == 0 and "cards: 53 (" in out and "armies: 2 (fenlings, stonewardens)" in out


def test_catalogue_import_refuses_a_rule_breaking_catalogue_naming_each_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(SAMPLE.read_text(encoding="utf-8"))
    document["cards"][12]["defence"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    db = str(tmp_path / "w.duckdb")
    status, out, err = run(capsys, "catalogue", "import", str(bad), "--db", db)
    assert status == 1 and out == ""
    assert f"{bad}: cards[12].defence: must be >= 0\n" in err and "not imported (1 problems)" in err
    status, out, _ = run(capsys, "catalogue", "list", "--db", db, "--json")
    assert all(c["default"] for c in json.loads(out)["catalogues"])


def test_catalogue_show_of_an_unknown_id_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "w.duckdb")
    run(capsys, "catalogue", "import", str(SAMPLE), "--db", db)
    status, _, err = run(capsys, "catalogue", "show", "c-" + "0" * 32, "--db", db)
    assert status == 1 and "no catalogue 'c-00000000000000000000000000000000'" in err


def test_catalogue_commands_go_through_a_running_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "served.duckdb"
    document = json.loads(SAMPLE.read_text(encoding="utf-8"))
    identity = catalogue_id(document)
    with serving(db) as server:
        status, out, err = run(capsys, "catalogue", "import", str(SAMPLE), "--db", str(db))
        assert status == 0, err
        assert f"imported as {identity}" in out
        assert server.get(f"/catalogues/{identity}").json() == document  # the server's store has it
        status, out, _ = run(capsys, "catalogue", "export", identity, "--db", str(db))
        assert status == 0 and json.loads(out) == document
        status, out, _ = run(capsys, "catalogue", "list", "--db", str(db), "--system", "lords-of-war")
        assert status == 0 and out.splitlines()[1].startswith(identity)
