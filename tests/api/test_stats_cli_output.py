"""``warlog stats`` output: tables fit the terminal, ``--limit`` on every table, ``--csv``, the heat map's note on
unbounded games, an unknown ``--army``. On a DuckDB file of three bot games (one of them unbounded)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main
from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("stats") / "w.duckdb")
    store = DuckDBEventStore(path)
    service = GameService(store)
    for seed, variant in ((1, {}), (2, {"unbounded": True}), (3, {})):
        store_events(service, "lords-of-war", play_bot_game(seed, variant=variant), f"g{seed}")
    store.close()
    assert main(["reproject", "--db", path]) == 0
    return path


def _run(*args: str, columns: int = 80) -> subprocess.CompletedProcess:
    env = os.environ | {"COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_stats_cards_fits_the_terminal_and_names_what_it_leaves_out(db):
    done = _run("stats", "cards", "--db", db)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(map(len, lines)) <= 80  # was 488 columns
    header = next(line for line in lines if line.startswith("card "))
    assert "placem" in header and "kills" in header
    assert any(line.startswith("(placem = placements") for line in lines)  # the key
    assert "Orc Warhog" in done.stdout  # cards by name, their copies together (issue 32 item 8)
    assert any("more columns than fit the terminal, all in --csv or --json: kills_per_place" in line for line in lines)
    wide = _run("stats", "cards", "--db", db, columns=600)
    assert "kills_per_placement" in wide.stdout and "shot_kill_share" in wide.stdout  # everything when it fits


def test_stats_every_table_fits_80_columns(db, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("armies", "matchups", "first-player", "game-length", "end-reasons", "cards", "heatmap", "ratings",
                 "head-to-head"):
        assert main(["stats", name, "--db", db]) == 0
        out = capsys.readouterr().out
        assert max(map(len, out.splitlines())) <= 80, name


def test_stats_limit_cuts_every_table_and_says_so(db, capsys):
    assert main(["stats", "cards", "--db", db, "--json"]) == 0
    total = len(json.loads(capsys.readouterr().out)["rows"])
    assert main(["stats", "cards", "--db", db, "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert f"(3 of {total} rows: --limit N for more, --limit 0 for all)" in out
    assert main(["stats", "first-player", "--db", db, "--limit", "1", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert len(body["by_army"]) == 1 and body["overall"]["games"] == 3
    for name in ("matchups", "heatmap", "end-reasons", "ratings", "head-to-head", "game-length"):
        assert main(["stats", name, "--db", db, "--limit", "2", "--json"]) == 0
        assert len(json.loads(capsys.readouterr().out)["rows"]) <= 2, name
    assert main(["stats", "cards", "--db", db, "--limit", "0", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == total
    with pytest.raises(SystemExit) as refused:  # a usage error (issue 28 item 22)
        main(["stats", "cards", "--db", db, "--limit", "-1"])
    assert refused.value.code == 2
    assert "argument --limit: -1 is out of range: give a whole number from 0 (every row)" in capsys.readouterr().err


def test_stats_csv_writes_every_column_at_full_precision(db, capsys):
    assert main(["stats", "cards", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert main(["stats", "cards", "--db", db, "--csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == len(rows) and list(table[0]) == list(rows[0])
    for got, want in zip(table, rows, strict=True):
        assert got["card"] == want["card"] and int(got["kills"]) == want["kills"]
        assert float(got["kills_per_placement"]) == want["kills_per_placement"]  # not rounded to 3 places
        assert got["ranged"] == ("true" if want["ranged"] else "false")
    assert main(["stats", "first-player", "--db", db, "--csv", "--limit", "1"]) == 0
    several = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["table"] for r in several] == ["overall", "by_army"] and several[0]["army"] == ""


def test_stats_heatmap_says_the_mat_leaves_out_unbounded_games(db, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["stats", "heatmap", "--db", db, "--json"]) == 0
    squares = json.loads(capsys.readouterr().out)["rows"]
    off = sum(s["placements"] for s in squares if "," in s["square"])
    on = sum(s["placements"] for s in squares if "," not in s["square"])
    assert off and on
    assert main(["stats", "heatmap", "--db", db]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert " A B C D E F G 6 " in out  # the grid is drawn (whitespace squeezed)
    assert (f"The mat shows the {on} placements of games on the 7x6 mat; the {off} placements in unbounded games "
            "(x,y squares, A1 = 0,0) are in the table only") in out
    assert main(["stats", "heatmap", "--db", db, "--variant", "standard"]) == 0
    assert "unbounded games" not in capsys.readouterr().out


def test_stats_unknown_army_names_the_known_ones(db):
    done = _run("stats", "armies", "--db", db, "--army", "orc")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (
        "warlog stats: no army 'orc'; the known armies are dwarves, elves, lizardmen, orcs, templars, undead.")
    assert _run("stats", "armies", "--db", db, "--army", "undead").returncode == 0
