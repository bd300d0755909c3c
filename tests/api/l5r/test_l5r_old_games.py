"""Games stored under an older L5R rules version (fixtures/l5r/games, recorded under ``l5r/1``): they still fold to
exactly the state they were recorded with (history never changes when the rules do), and ``warlog verify`` reports
them as rule drift at their first event, naming the rules version they were recorded under."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.l5r import SYSTEM
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.records_helpers import warlog

GAMES = Path(__file__).resolve().parents[3] / "fixtures" / "l5r" / "games"
NAMES = ("l5r1-crab-vs-crane-sealed", "l5r1-crane-vs-lion-table")


def events_of(name: str) -> list[Any]:
    lines = (GAMES / f"{name}.jsonl").read_bytes().splitlines()
    return [SYSTEM.codec.decode_json(line) for line in lines if line.strip()]


def contains(actual: Any, expected: Any, where: str = "state") -> None:
    """``actual`` holds everything ``expected`` holds (fields added to the state since are allowed)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is gone"
            contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            contains(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


@pytest.mark.parametrize("name", NAMES)
def test_an_l5r1_game_folds_to_the_state_it_was_recorded_with(name: str) -> None:
    events = events_of(name)
    assert events[0].rules_version == "l5r/1"
    expected = json.loads((GAMES / f"{name}.state.json").read_text())
    contains(json.loads(json.dumps(SYSTEM.state_to_builtins(SYSTEM.fold(events)))), expected)
    state = SYSTEM.initial_state()
    for event in events:  # the evolve loop too
        state = SYSTEM.evolve(state, event)
    assert state == SYSTEM.fold(events)


def test_warlog_verify_reports_an_l5r1_game_as_rule_drift_at_its_first_event(tmp_path: Path) -> None:
    assert SYSTEM.rules_version != "l5r/1"  # R4-R9 changed what decide() does: a new rules version
    db = tmp_path / "old.duckdb"
    store = DuckDBEventStore(str(db))
    try:
        for name in NAMES:
            store_events(GameService(store), "l5r", events_of(name), name)
    finally:
        store.close()
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    for name in NAMES:
        line = next(line for line in checked.stdout.splitlines() if line.startswith(f"{name} seq 1: rules"))
        assert '"rules_version":"l5r/1"' in line and f'"rules_version":"{SYSTEM.rules_version}"' in line
