"""Games recorded before the rulings Art of War R5-R7 and Light Wars R6 (fixtures/art_of_war/v1,
fixtures/light_wars/v1: written by the code of commit f79f774, every event at schema version 1) still decode and
replay as they were played: folded by today's code (upcasting what changed shape) to the final state that code
folded them to, step by step as the replay cursor does, with a view and an explanation of every event. History
never changes when the rules do; ``warlog verify`` is what reports that today's rules would decide otherwise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.systems import get_system
from events import Recorded
from replay.log.explain import explain_game
from replay.log.views import events_view, state_view

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OLD = sorted([*(FIXTURES / "art_of_war" / "v1").glob("*.jsonl"), *(FIXTURES / "light_wars" / "v1").glob("*.jsonl")])
SYSTEMS = {"art_of_war": "art-of-war", "light_wars": "light-wars"}
# Fields the shown state gained after f79f774 wrote these games, with the value every one of them has (none was
# adjudicated: issue 28 added ``adjudication``). The recorded states stay as written; these are added to them.
ADDED_SINCE: dict[str, Any] = {"adjudication": None}


def old_game(path: Path) -> tuple[str, list[Any]]:
    name = SYSTEMS[path.parent.parent.name]
    codec = get_system(name).codec
    return name, [codec.decode_json(line, version=1) for line in path.read_bytes().splitlines() if line.strip()]


def shown(system: Any, state: Any) -> Any:
    return json.loads(msgspec.json.encode(system.state_to_builtins(state)))


def test_old_records_are_there() -> None:
    assert {p.stem for p in OLD} >= {"king-captured-table-position", "zero-attack-table-position", "bots-table-2",
                                     "bots-sealed-0", "bots-table-3"}


@pytest.mark.parametrize("path", OLD, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_old_records_fold_to_the_state_they_were_played_to(path: Path) -> None:
    name, events = old_game(path)
    system = get_system(name)
    recorded = json.loads(path.with_name(f"{path.stem}.state.json").read_text(encoding="utf-8"))
    assert not recorded.keys() & ADDED_SINCE.keys()
    expected = {**recorded, **ADDED_SINCE}
    assert shown(system, system.fold(events)) == expected
    state = system.initial_state()
    for event in events:  # the cursor's way, one event at a time
        state = system.evolve(state, event)
    assert shown(system, state) == expected


@pytest.mark.parametrize("path", OLD, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_old_records_are_shown_and_explained_in_every_view(path: Path) -> None:
    name, events = old_game(path)
    system = get_system(name)
    recorded = [Recorded(game_id="old", seq=i + 1, recorded_at="2026-01-01T00:00:00Z", schema_version=1, event=e,
                         hash=None) for i, e in enumerate(events)]
    final = system.fold(events)
    for view in ("all", "spectator", "p1", "p2"):
        assert len(events_view(name, recorded, view)) == len(events)
        assert [x.seq for x in explain_game(name, recorded, view)] == list(range(1, len(events) + 1))
        assert state_view(name, final, view)["seq"] == len(events)


def test_r6_a_king_an_old_record_captured_into_a_kingdom_counts_in_no_score() -> None:
    """The art-of-war/1 game put the captured Bow King into p1's kingdom (and its game_ended counted it): the game
    replays so, but its result counts basic units only."""
    name, events = old_game(FIXTURES / "art_of_war" / "v1" / "king-captured-table-position.jsonl")
    system = get_system(name)
    final = system.fold(events)
    assert "p2.bow-king.1" in final.player("p1").kingdom and events[-1].kingdoms == (2, 0)
    outcome = system.outcome(final)
    assert outcome is not None and outcome.winners == ("p1",) and outcome.scores == {"p1": 1, "p2": 0}
