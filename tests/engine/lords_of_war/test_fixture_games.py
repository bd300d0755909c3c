"""Reference games (fixtures/games/): each folds to its recorded final state, and today's rules re-decide it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.lords_of_war import fold, state_to_builtins, verify
from events.lords_of_war import CODEC
from tests.engine.lords_of_war.fixture_games import GAMES_DIR, all_games

GAMES = sorted(GAMES_DIR.glob("*.jsonl"))


def load(path: Path) -> list:
    return [CODEC.decode_json(line) for line in path.read_bytes().splitlines() if line.strip()]


def test_fixture_games_exist():
    assert len(GAMES) >= 4
    assert set(all_games()) == {p.stem for p in GAMES}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fixture_games_fold_to_the_expected_state(path):
    events = load(path)
    expected = json.loads(path.with_name(f"{path.stem}.state.json").read_text(encoding="utf-8"))
    assert state_to_builtins(fold(events)) == expected


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fixture_games_are_re_decided_identically(path):
    assert verify(load(path)) is None


def test_fixture_games_generators_reproduce_the_files():
    for name, events in all_games().items():
        assert load(GAMES_DIR / f"{name}.jsonl") == events
