"""Issue 29 item 5: the tournament model is a domain module apart from the service, and the event store knows
nothing of tournaments (the import cycle replay/store/postgres_store.py <-> replay/tournaments/store.py is gone)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]


def imported(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
    return names


def test_the_tournament_model_imports_no_service_store_or_http() -> None:
    ours = {m for m in imported(ROOT / "replay" / "tournaments" / "model.py") if m.split(".")[0] in
            {"api", "replay", "engine", "events"}}
    assert ours == {"engine.system", "replay.tournaments"}  # from replay.tournaments import day (pure, below)
    pure = {m for m in imported(ROOT / "replay" / "tournaments" / "day.py") if m.split(".")[0] in
            {"api", "replay", "engine", "events"}}
    assert pure == set(), "the day's pure parts (tie-breaks, the clock's arithmetic, the bracket) import none of ours"


def test_the_event_store_imports_nothing_of_tournaments() -> None:
    for path in sorted((ROOT / "replay" / "store").glob("*.py")):
        assert not {m for m in imported(path) if m.startswith(("replay.tournaments", "api"))}, path.name
