"""Which database a command uses (issue 11, item 4): `--db` and `WARLOG_DB` mean the same for every command, and a
command that reads never creates an empty database. The command list comes from the parser, so a new command
cannot forget it."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import build_parser, main
from api.options import Number

ROOT = Path(__file__).resolve().parents[2]
OVERRIDES = {("demo",): ["--games", "1"]}  # a quick run of a command that creates


def leaf_commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = []
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        return [(path, parser)]
    for name, child in subparsers[0].choices.items():
        found.extend(leaf_commands(child, (*path, name)))
    return found


def dummy(action: argparse.Action) -> list[str]:
    """A value the parser accepts for ``action``."""
    if action.choices:
        value = str(next(iter(action.choices)))
    elif isinstance(action.type, Number):
        value = str(max(action.type.low or 0, 1) if action.type.high is None or action.type.high >= 1
                    else action.type.low)
    elif action.type is int:
        value = "1"
    else:
        value = "x"
    count = action.nargs if isinstance(action.nargs, int) else 1
    return [value] * count


def argv_for(path: tuple[str, ...], parser: argparse.ArgumentParser) -> list[str]:
    """The command with its positionals and required options, and without --db."""
    argv = list(path)
    for action in parser._actions:
        if not action.option_strings:
            argv += dummy(action)
        elif action.required:
            argv += [action.option_strings[0], *dummy(action)]
    return argv + OVERRIDES.get(path, [])


DB_COMMANDS = [
    (p, sp) for p, sp in leaf_commands(build_parser()) if any("--db" in a.option_strings for a in sp._actions)
]


def test_the_command_list_is_walked() -> None:
    names = {" ".join(p) for p, _ in DB_COMMANDS}
    expected = {"export", "verify", "replay", "stats", "sql", "tournament list", "tournament create", "serve", "demo"}
    assert expected <= names


@pytest.mark.parametrize("path", [p for p, _ in DB_COMMANDS if p != ("serve",)], ids=" ".join)
def test_cli_honours_warlog_db(path: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    parser = dict(DB_COMMANDS)[path]
    env_db = tmp_path / "env.duckdb"
    cwd = tmp_path / "here"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("WARLOG_DB", str(env_db))
    status = main(argv_for(path, parser))
    err = capsys.readouterr().err
    assert not (cwd / "warlog.duckdb").exists(), "the default database was used instead of WARLOG_DB"
    creates = bool(parser.get_default("creates_db"))
    if creates:
        assert env_db.exists()
    else:
        assert status == 1
        assert err.strip() == (f"warlog {' '.join(path)}: there is no database at {env_db}: give one with --db or "
                               "WARLOG_DB (`warlog demo`, `warlog import` and `warlog serve` create one)")
        assert not env_db.exists()


def test_serve_honours_warlog_db(tmp_path: Path) -> None:
    env_db = tmp_path / "served.duckdb"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_DB": str(env_db)}
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", "0"], cwd=tmp_path, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # printed once started (or nothing, if it fails)
        assert line.startswith(f"warlog: serving {env_db} at http://127.0.0.1:"), process.stderr
        assert Path(str(env_db) + ".server.json").exists()
        assert not (tmp_path / "warlog.duckdb").exists()
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_cli_read_where_no_database_exists_creates_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WARLOG_DB"} | {"PYTHONPATH": str(ROOT)}
    for args in (["stats", "armies"], ["tournament", "list"], ["export", "g1"]):
        result = subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr.startswith(f"warlog {' '.join(args[:2 if args[0] == 'tournament' else 1])}: there is no "
                                         "database at warlog.duckdb: ")
        assert list(tmp_path.iterdir()) == []
