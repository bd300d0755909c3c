"""Issue 29 speed work: every system's fold, evolve and decide give, byte for byte, what they gave before it.

``tests/fixtures/engine_golden.json`` holds, per system, one SHA-256 over bot games of its sample setups (the games
``bench/systems.py`` times, fewer of them): every event's JSON, the state after each event (``evolve`` step by step)
and the ``fold`` of the whole game, encoded as JSON (a set sorted); ``decide`` of every recorded action against the
state before it (its events, or its refusal's code, rule and words). For HeroScape, whose decide plans ways and line
of sight, also a move of the acting figure to every hex of the map and an attack on every enemy figure, from the
states before some of its recorded moves. The hashes were written by main a2683ad, before the engine was made
faster, with ``python -m tests.engine.test_engine_golden --write``; a change that alters any state, event or refusal
fails here.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.errors import RuleError
from engine.heroscape.actions import Attack, Move
from engine.heroscape.state import board
from engine.play import play
from engine.systems import get_system

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "engine_golden.json"
SEED = 20261124  # bench/systems.py's
GAMES = {"art-of-war": 12, "heroscape": 6, "l5r": 6, "light-wars": 6, "lords-of-war": 6}
PROBED_MOVES = 3  # HeroScape: the states before this many recorded moves per game are probed


def plain(value: Any) -> Any:
    """``value`` as JSON data, a set sorted (its order is the hash seed's; a dict keeps its own, the engine's), a
    catalogue by its id (a state names it)."""
    if isinstance(value, msgspec.Struct):
        return [type(value).__name__, *(plain(getattr(value, f)) for f in value.__struct_fields__)]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return [[plain(k), plain(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    for attribute in ("id", "name"):
        if isinstance(getattr(value, attribute, None), str):
            return f"{type(value).__name__}:{getattr(value, attribute)}"
    raise TypeError(f"cannot encode {type(value).__name__}")


def encoded(value: Any) -> bytes:
    return json.dumps(plain(value), separators=(",", ":")).encode()


def _decided(system: Any, state: Any, action: Any) -> bytes:
    try:
        return encoded(list(system.decide(state, action)))
    except RuleError as error:
        return encoded(["refused", error.code, error.rule, str(error)])


def _probes(state: Any, action: Move) -> Iterator[Any]:
    """Every hex of the map as the moving figure's end, and every enemy figure as its target."""
    cells = sorted(board(state).cells)
    mover = next(f for f in state.figures if f.id == action.figure and f.owner == int(action.player[1]) - 1)
    for to in cells:
        yield Move(player=action.player, figure=action.figure, to=to)
    for g in state.figures:
        if g.owner != mover.owner:
            yield Attack(player=action.player, figure=action.figure, target=g.id)


def lines(name: str) -> Iterator[bytes]:
    """What the hash of ``name`` is taken over, in order."""
    system = get_system(name)
    bots = sorted(system.bots)
    for i in range(GAMES[name]):
        setup = system.sample_setup(i, SEED + i)
        events = play(system, setup, (bots[i % len(bots)], bots[(i + 1) % len(bots)]), max_actions=3000).events
        state = system.initial_state()
        states = [state]
        for event in events:
            yield system.codec.encode_json(event)
            state = system.evolve(state, event)
            states.append(state)
            yield encoded(state)
        yield encoded(system.fold(events))
        probed = 0
        for recorded in system.recorded_actions(events):
            before = states[recorded.start]
            yield _decided(system, before, recorded.action)
            if name == "heroscape" and isinstance(recorded.action, Move) and probed < PROBED_MOVES:
                probed += 1
                for probe in _probes(before, recorded.action):
                    yield _decided(system, before, probe)


def digest(name: str) -> str:
    h = hashlib.sha256()
    for line in lines(name):
        h.update(line)
        h.update(b"\n")
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_engine_states_events_and_refusals_are_byte_for_byte_what_main_gave(name: str) -> None:
    expected = json.loads(GOLDEN.read_text())[name]
    assert digest(name) == expected, f"{name}: a state, event or refusal differs from main's (see the docstring)"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.engine.test_engine_golden --write")
    from api.installed import load_systems  # as tests/conftest.py loads them

    load_systems()
    GOLDEN.write_text(json.dumps({name: digest(name) for name in sorted(GAMES)}, indent=1) + "\n")
