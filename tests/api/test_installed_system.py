"""A game system installed as a package of its own registers by being installed (issue 29 item 4): the ``warlog``
command, started as a user starts it, finds pebbles (tests/plugins/pebbles, installed into the test venv by the
Makefile) through its ``warlog.systems`` entry point and plays, lists, verifies, exports and counts its games; left
out (``WARLOG_EXCLUDE_SYSTEMS``) it is an unknown system. Over HTTP: tests/api/test_pebbles_serve.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from api.installed import EXCLUDE_SETTING

WARLOG = Path(sys.executable).with_name("warlog")  # the console script pip installed


def warlog(*args: str, exclude: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {EXCLUDE_SETTING: exclude}
    return subprocess.run([str(WARLOG), *args], env=env, capture_output=True, text=True, timeout=120)


def test_an_installed_system_is_played_by_the_warlog_command_through_its_entry_point(tmp_path: Path) -> None:
    db = str(tmp_path / "pebbles.duckdb")
    demo = warlog("demo", "--system", "pebbles", "--games", "2", "--db", db)
    assert demo.returncode == 0, demo.stderr
    assert "recorded 2 pebbles bot games" in demo.stdout
    listed = warlog("games", "--json", "--db", db)
    assert listed.returncode == 0, listed.stderr
    games = json.loads(listed.stdout)
    assert [g["system"] for g in games] == ["pebbles", "pebbles"]
    verified = warlog("verify", "--db", db)
    assert verified.returncode == 0 and "verified 2 games: 0 divergences" in verified.stderr, verified.stderr
    exported = warlog("export", games[0]["id"], "--db", db)
    assert exported.returncode == 0 and '[System "pebbles"]' in exported.stdout, exported.stderr
    counted = warlog("stats", "end-reasons", "--system", "pebbles", "--json", "--db", db)
    assert counted.returncode == 0, counted.stderr
    assert json.loads(counted.stdout)["games"] == 2


def test_an_installed_system_left_out_at_start_up_is_unknown_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "none.duckdb"
    refused = warlog("demo", "--system", "pebbles", "--games", "1", "--db", str(db), exclude="pebbles")
    assert refused.returncode == 2
    assert "unknown game system 'pebbles' (known: art-of-war, heroscape, l5r, light-wars, lords-of-war)" in (
        refused.stderr)
    assert not db.exists()


BROKEN = """
import sys
from importlib.metadata import EntryPoint

import api.installed

installed = api.installed.entry_points
broken = EntryPoint(name="dice", value=sys.argv[1], group="warlog.systems")
api.installed.entry_points = lambda group: [*installed(group=group), broken]
from api.cli import main

sys.exit(main(sys.argv[2:]))
"""


def test_an_installed_system_that_cannot_be_loaded_stops_warlog_with_which_and_why(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")}
    db = tmp_path / "none.duckdb"
    for value, why in (("nowhere.at_all:PLUGIN", "cannot be loaded: ModuleNotFoundError: No module named 'nowhere'"),
                       ("engine.lords_of_war:SYSTEM", "not an engine.systems.SystemPlugin")):
        done = subprocess.run([sys.executable, "-c", BROKEN, value, "demo", "--games", "1", "--db", str(db)], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith(f"warlog: the entry point dice = {value!r}") and why in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and not db.exists()
