"""Issue 28 item 22: every numeric option of every command refuses a value out of its range with one sentence and
exit status 2, before anything runs (``warlog demo --games -1`` said "recorded -1 ... bot games" and exited 0).

The options are found by walking the parser (each system's tournament options included), so a new numeric option
cannot be left out: a plain ``type=int`` or ``type=float`` is a failure of its own."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import build_parser, main
from api.options import Number
from tests.api.test_cli_database import argv_for

ROOT = Path(__file__).resolve().parents[2]


Leaf = tuple[tuple[str, ...], argparse.ArgumentParser]


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[Leaf]:
    """Every leaf command's parser, with the options each system adds to it (``tournament create``)."""
    add_systems = getattr(parser, "_add_systems", None)
    if add_systems is not None:
        add_systems()
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        return [(path, parser)]
    return [found for name, child in subparsers[0].choices.items() for found in parsers(child, (*path, name))]


LEAVES = parsers(build_parser())


def is_numeric(action: argparse.Action) -> bool:
    return action.type in (int, float) or isinstance(action.type, Number)


NUMERIC = [(path, parser, action) for path, parser in LEAVES for action in parser._actions if is_numeric(action)]


def name(action: argparse.Action) -> str:
    return action.option_strings[0] if action.option_strings else action.metavar or action.dest


def out_of_range(number: Number) -> list[str]:
    values = []
    if number.low is not None:
        values.append(str(number.low - 1))
    if number.high is not None:
        values.append(str(number.high + 1))
    return values


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = int(stop.code or 0)
    return status, out.getvalue(), err.getvalue()


def with_value(path: tuple[str, ...], parser: argparse.ArgumentParser, action: argparse.Action, value: str,
               db: Path) -> list[str]:
    """The command with ``value`` for ``action`` (and dummies for what it requires)."""
    argv = argv_for(path, parser)
    count = action.nargs if isinstance(action.nargs, int) else 1
    if action.option_strings:
        argv += [action.option_strings[0], *[value] * count]
    else:  # a positional: replace its dummy
        positionals = [a for a in parser._actions if not a.option_strings]
        before = positionals[:positionals.index(action)]
        index = len(path) + sum(a.nargs if isinstance(a.nargs, int) else 1 for a in before)
        argv[index:index + count] = [value] * count
    return [*argv, "--db", str(db)] if any("--db" in a.option_strings for a in parser._actions) else argv


def test_cli_the_numeric_options_are_found() -> None:
    found = {(" ".join(path), name(action)) for path, _, action in NUMERIC}
    assert {("demo", "--games"), ("demo", "--players"), ("demo", "--seed"), ("stats", "--limit"), ("sql", "--limit"),
            ("sql", "--timeout"), ("serve", "--port"), ("serve", "--workers"), ("tournament create", "--rounds"),
            ("tournament create", "--kill-target"), ("tournament result", "ROUND"), ("tournament result", "--scores"),
            ("games", "--limit")} <= found


@pytest.mark.parametrize(("path", "parser", "action"), NUMERIC, ids=[f"{' '.join(p)} {name(a)}" for p, _, a in NUMERIC])
def test_cli_every_numeric_option_has_a_range(path, parser, action) -> None:
    assert isinstance(action.type, Number), f"warlog {' '.join(path)} {name(action)} takes any {action.type.__name__}"
    assert action.type.low is not None, "every numeric option has a least value"


@pytest.mark.parametrize(("path", "parser", "action"), NUMERIC, ids=[f"{' '.join(p)} {name(a)}" for p, _, a in NUMERIC])
def test_cli_every_numeric_option_refuses_a_value_out_of_range_in_one_sentence(path, parser, action,
                                                                               tmp_path: Path) -> None:
    if not isinstance(action.type, Number):
        pytest.fail(f"warlog {' '.join(path)} {name(action)} has no range")
    db = tmp_path / "n.duckdb"
    for value in [*out_of_range(action.type), "lots"]:
        status, out, err = run(with_value(path, parser, action, value, db))
        assert status == 2, (value, err)
        assert out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        named = "/".join(action.option_strings) or action.metavar
        assert lines[0].startswith(f"warlog {' '.join(path)}: argument {named}: ")
        assert value in lines[0] and action.type.range() in lines[0]
        assert not db.exists(), "a refused command created the database"


def test_cli_every_numeric_option_takes_its_bounds(tmp_path: Path) -> None:
    for path, _, action in NUMERIC:
        number = action.type
        assert isinstance(number, Number)
        for bound in (number.low, number.high):
            if bound is not None:
                assert number(str(bound)) == bound, (path, name(action))


def test_demo_refuses_a_negative_number_of_games_in_one_sentence(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(ROOT)}
    argv = ["demo", "--games", "-1", "--db", str(tmp_path / "d.duckdb")]
    done = subprocess.run([sys.executable, "-m", "api.cli", *argv], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == ("warlog demo: argument --games: -1 is out of range: give a whole number from 1 to 1,000,000 "
                           "(see warlog demo --help)\n")
    assert list(tmp_path.iterdir()) == []


def test_demo_refuses_seeds_past_the_largest(tmp_path: Path) -> None:
    status, out, err = run(["demo", "--games", "3", "--seed", str(2**63 - 2), "--db", str(tmp_path / "s.duckdb")])
    assert status == 2 and out == ""
    assert err == (f"warlog demo: --seed {2**63 - 2} with --games 3: the last game's seed would be past 2^63-1 "
                   f"({2**63 - 1}); give a smaller --seed\n")
    assert not (tmp_path / "s.duckdb").exists()


def test_serve_settings_out_of_range_from_the_environment_are_one_sentence(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {
        "PYTHONPATH": str(ROOT), "WARLOG_PORT": "70000"}
    done = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--db", str(tmp_path / "e.duckdb")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("warlog serve: port: ") and "65535" in done.stderr


def test_tournament_create_refuses_a_number_its_system_refuses_as_a_usage_error(tmp_path: Path) -> None:
    """A variant's number within the option's type but out of the system's range (the kill target of a two-player
    game is 1 to 36) is judged before the database is opened: one sentence, exit 2, nothing created."""
    db = tmp_path / "k.duckdb"
    status, out, err = run(["tournament", "create", "--name", "Cup", "--rounds", "2", "--kill-target", "0",
                            "--db", str(db)])
    assert status == 2 and out == ""
    assert err == ("warlog tournament create: invalid_variant: kill_target must be 1 to 36 (an army has 36 cards), "
                   "not 0\n")
    assert not db.exists()


def test_a_setting_out_of_range_in_the_environment_is_one_sentence_for_every_command(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {
        "PYTHONPATH": str(ROOT), "WARLOG_PORT": "70000"}
    (tmp_path / "s.duckdb").touch()
    for args in (["stats", "armies"], ["sql", "SELECT 1"]):
        done = subprocess.run([sys.executable, "-m", "api.cli", *args, "--db", str(tmp_path / "s.duckdb")],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr == (f"warlog {args[0]}: port: Input should be less than or equal to 65535, not '70000' "
                               "(WARLOG_PORT or the command line)\n")
