"""The command line's own surface (issue 11, item 16): --version, help text for every option, readable help."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from api.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def warlog(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


def walk(parser: argparse.ArgumentParser, path: str = "warlog") -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.extend(walk(child, f"{path} {name}"))
    return found


def test_cli_version() -> None:
    result = warlog("--version")
    assert result.returncode == 0
    assert result.stdout == f"warlog {version('warlog')}\n"


def test_cli_every_option_has_help_text() -> None:
    missing = []
    for path, parser in walk(build_parser()):
        assert parser.description, f"{path} has no description"
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                missing += [f"{path} {name}" for name in action.choices if not helps.get(name)]
            elif not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_cli_tournament_help_has_no_docstring_markup() -> None:
    result = warlog("tournament", "--help")
    assert result.returncode == 0
    assert "``" not in result.stdout and ":param" not in result.stdout
    assert "warlog tournament round" in result.stdout  # the workflow is still shown


def test_cli_usage_error_exits_2() -> None:
    result = warlog("export", "--format", "pgn")  # not a choice: argparse's usage error
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_cli_ratings_are_printed_as_whole_points(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    assert main(["demo", "--games", "4", "--db", db]) == 0
    exact = json.loads(warlog("stats", "ratings", "--json", "--db", db).stdout)["rows"]
    assert any(r["rating"] != int(r["rating"]) for r in exact)  # the case that matters: fractional ratings
    text = warlog("stats", "ratings", "--db", db).stdout.splitlines()
    header = text.index(next(line for line in text if line.startswith("rank")))
    spans = [m.span() for m in re.finditer(r"-+", text[header + 1])]  # the table's columns, from its rule
    columns = [text[header][a:b].strip() for a, b in spans]
    printed = [{c: line[a:b].strip() for c, (a, b) in zip(columns, spans, strict=True)} for line in text[header + 2:]]
    assert len(printed) == len(exact)
    for row, want in zip(printed, exact, strict=True):
        assert row["rating"] == str(math.floor(want["rating"] + 0.5))
