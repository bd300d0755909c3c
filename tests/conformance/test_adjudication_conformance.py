"""The scorekeeper's ``adjudicate`` for every registered system, through the protocols alone (issue 28 item 11): a bot
game stored through ``GameService`` is adjudicated midway for each reason (a named winner, a draw, placings of every
seat, the system's time rule without a result), with two seats, with teams (Lords of War, four seats) and with more
than two seats apart (pebbles, four seats). Then, whatever the system:

- the outcome is the adjudication's (reason ``adjudicated``, its reason apart), and the time rule's when none was
  named; nothing is awaited any more and nothing more is legal;
- the state (every view: an adjudication hides nothing) reads ``end_reason`` ``adjudicated``, the adjudication and
  ``winner`` (``draw`` for a draw); the listing agrees;
- the last explanation says why, citing the rule ``adjudication``;
- the text record and JSONL round-trip (export, import, export identical; the same events), the bulk import
  re-decides it to the same rows, and ``verify`` finds nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from engine.adjudication import SCOREKEEPER, Adjudicate
from engine.play import seat_bots
from engine.system import Seat
from engine.systems import get_system, system_names
from replay.adjudication import WHY
from replay.archive.bulk import ImportGame, bulk_import
from replay.archive.games import export_jsonl, export_record, import_jsonl, import_record
from replay.log.explain import explain_game
from replay.log.service import GameService
from replay.log.verify import verify_game
from replay.log.views import state_view, views_of
from replay.store.memory_store import MemoryEventStore
from tests.plugins.installed import pebbles_registered

SEED = 2828
BOT_ACTIONS = 3  # midway: the game runs after these
# (system, sample index, seats): each system's first sample setup; Lords of War's teams; pebbles' four seats apart
GAMES = [*((name, 0, None) for name in sorted(system_names())), ("lords-of-war", 0, 4), ("pebbles", 0, None),
         ("pebbles", 1, 4)]
REASONS = ("judge", "agreement", "stalled", "time")


@pytest.fixture(scope="module", autouse=True)
def test_systems() -> Iterator[None]:
    with pebbles_registered():
        yield


def _midway(service: GameService, name: str, index: int, seats: int | None) -> tuple[str, tuple[Seat, ...]]:
    system = get_system(name)
    setup = system.sample_setup(index, SEED, seats)
    game_id = service.create_game(setup).game_id
    table = system.seats(setup)
    bots = seat_bots(system, table, ("random",), SEED)
    for _ in range(BOT_ACTIONS):
        _, state = service.state(game_id)
        seat = system.to_act(state)[0]
        service.act(game_id, bots[seat].choose(state, seat))
    assert system.outcome(service.state(game_id)[1]) is None
    return game_id, table


def _sides(seats: tuple[Seat, ...]) -> list[tuple[str, ...]]:
    """Each side's seats (a team, or a seat alone), in seating order of their first seat."""
    sides: dict[str, list[str]] = {}
    for seat in seats:
        sides.setdefault(seat.team or seat.id, []).append(seat.id)
    return [tuple(side) for side in sides.values()]


def _adjudication(reason: str, seats: tuple[Seat, ...]) -> tuple[dict[str, Any], Any]:
    """The action of each scenario, and the placings it names (None: the time rule decides)."""
    sides = _sides(seats)
    if reason == "judge":  # the last side wins
        return ({"type": "adjudicate", "winner": sides[-1][0], "reason": "judge", "note": "a ruling of the judge"},
                (sides[-1], tuple(s for side in sides[:-1] for s in side)))
    if reason == "agreement":  # a draw
        return {"type": "adjudicate", "winner": "draw", "reason": "agreement"}, (tuple(s.id for s in seats),)
    if reason == "stalled":  # every side apart, the last first
        placings = tuple(reversed(sides))
        return {"type": "adjudicate", "placings": [list(g) for g in placings], "reason": "stalled"}, placings
    return {"type": "adjudicate", "reason": "time"}, None


@pytest.mark.parametrize("reason", REASONS)
@pytest.mark.parametrize("name, index, seats", GAMES, ids=lambda v: str(v))
def test_adjudication_conformance_a_game_adjudicated_midway(name: str, index: int, seats: int | None,
                                                            reason: str) -> None:
    system = get_system(name)
    service = GameService(MemoryEventStore())
    game_id, table = _midway(service, name, index, seats)
    _, before = service.state(game_id)
    action, named = _adjudication(reason, table)
    placings = named if named is not None else system.on_time(before).placings
    acted = service.act(game_id, action)
    ended = acted.events[-1].event
    assert len(acted.events) == 1 and ended.adjudication.reason == reason

    events = [r.event for r in service.events(game_id)]
    last = system.recorded_actions(events)[-1]
    assert last.seat == SCOREKEEPER and isinstance(last.action, Adjudicate) and last.stop == len(events)
    state = system.fold(events)
    outcome = system.outcome(state)
    assert outcome is not None and outcome.reason == "adjudicated" and outcome.adjudication == reason
    assert [set(g) for g in outcome.placings] == [set(g) for g in placings]
    assert system.to_act(state) == () and list(system.legal_actions(state)) == []

    draw = len(placings) == 1
    shown = [state_view(name, state, view) for view in views_of(service.seats(game_id))]
    for data in shown:
        assert data["phase"] == "over" and data["end_reason"] == "adjudicated"
        assert data["adjudication"] == shown[0]["adjudication"] and data["adjudication"]["reason"] == reason
        if draw:
            assert data["winner"] == "draw"
    listed = service.store.get_game(game_id).metadata
    assert listed["status"] == "over" and listed["end_reason"] == "adjudicated" and listed["adjudication"] == reason
    assert listed["placings"] == [list(g) for g in outcome.placings]
    assert listed["winner"] == ("draw" if draw else outcome.winners[0] if len(outcome.winners) == 1 else None)

    explained = explain_game(name, service.events(game_id))[-1]
    assert explained.text.startswith(WHY[reason]) and explained.cause["rule"] == "adjudication"
    if named is None:
        assert system.on_time(before).explanation in explained.text

    assert verify_game(service, game_id) == []
    for view in views_of(service.seats(game_id)):
        for comments in (False, True):
            text = export_record(service, game_id, view=view, comments=comments)
            assert '[Termination "adjudicated"]' in text and f'[Adjudication "{reason}"]' in text
            if view != "all":
                continue
            again = GameService(MemoryEventStore())
            copy = import_record(again, text)
            assert export_record(again, copy, comments=comments) == text
            assert [(e.type, e.payload) for e in again.store.read(copy)] == \
                [(e.type, e.payload) for e in service.store.read(game_id)]
            assert verify_game(again, copy) == []
    jsonl = export_jsonl(service, game_id)
    again = GameService(MemoryEventStore())
    copy = import_jsonl(again, jsonl)
    assert export_jsonl(again, copy).count("\n") == jsonl.count("\n")
    assert [(e.type, e.payload) for e in again.store.read(copy)] == \
        [(e.type, e.payload) for e in service.store.read(game_id)]
    rows = service.store.read(game_id)
    target = MemoryEventStore()
    report = bulk_import(target, [ImportGame(game_id, name, service.store.get_game(game_id).players,
                                             [msgspec.Raw(e.payload) for e in rows])])
    assert report.validation == "redecide" and report.games == 1
    assert [(e.type, e.payload, e.hash) for e in target.read(game_id)] == [(e.type, e.payload, e.hash) for e in rows]
    assert target.get_game(game_id).metadata["adjudication"] == reason


@pytest.mark.parametrize("name", sorted({*system_names(), "pebbles"}))
def test_adjudication_conformance_a_record_whose_adjudication_the_rules_refuse_is_refused_with_its_line(
        name: str) -> None:
    from replay.archive.games import RecordError

    service = GameService(MemoryEventStore())
    game_id, _ = _midway(service, name, 0, None)
    service.act(game_id, {"type": "adjudicate", "winner": "p1", "reason": "judge"})
    text = export_record(service, game_id).replace('[AdjudicationResult "p1; ', '[AdjudicationResult "p9; ')
    with pytest.raises(RecordError) as refused:
        import_record(GameService(MemoryEventStore()), text)
    assert refused.value.code == "unknown_seat" and refused.value.rule == "adjudication"
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("[Adjudication "))
    assert refused.value.line == line
