"""Issue 31 item 3, in every system: a finished game's result corrected by the organiser (``correction``) is a
``game_ended`` of the system's own after the one it corrects. The corrected outcome counts (as adjudicated, reason
``correction``), the game's length does not change, the rules re-decide it (``verify``), and its record (the text
record and JSON lines) imports back to the same events. A running game, a correction without a reason, and a
client's ``adjudicate`` naming the reason are refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine.adjudication import Adjudicate, correction, parse_adjudication
from engine.errors import RuleError
from engine.play import verify
from engine.systems import get_system, system_names
from replay.analytics.model import GameHeader, StreamEvent
from replay.analytics.projections import read_game
from replay.archive.games import export_jsonl, export_record, import_jsonl, import_record, store_events
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore

SYSTEMS = sorted(system_names())


def _ended(name: str, ending: str) -> list[Any]:
    """An opening, four bot actions, then the end: p1 concedes (the rules end it) or the scorekeeper adjudicates
    p1's win by agreement."""
    system = get_system(name)
    events = list(system.start(system.sample_setup(0, 3)))
    state = system.fold(events)
    bot = system.bots["random"](5)
    for _ in range(4):
        produced = system.decide(state, bot.choose(state, system.to_act(state)[0]))
        events.extend(produced)
        state = system.fold(produced, state)
    end = system.concession("p1") if ending == "concession" else Adjudicate(reason="agreement", winner="p1")
    events.extend(system.decide(state, end))
    return events


def _corrected(name: str, events: list[Any], placings: tuple[tuple[str, ...], ...], reason: str) -> list[Any]:
    system = get_system(name)
    return [*events, *system.decide(system.fold(events), correction(placings, reason))]


def _facts(name: str, events: list[Any]) -> Any:
    header = GameHeader("g", name, "2026-05-02T09:00:00Z", None, {})
    stream = [StreamEvent(i + 1, f"2026-05-02T09:{i // 60:02d}:{i % 60:02d}Z", e) for i, e in enumerate(events)]
    return read_game(header, stream, get_system(name))


@pytest.mark.parametrize("ending", ["concession", "adjudicated"])
@pytest.mark.parametrize("name", SYSTEMS)
def test_a_correction_ends_a_finished_game_again_with_the_corrected_result_and_verifies(name: str,
                                                                                        ending: str) -> None:
    system = get_system(name)
    events = _ended(name, ending)
    seats = [seat.id for seat in system.seats(system.recorded_setup(events))]
    before = system.outcome(system.fold(events))
    assert before is not None
    loser_first = (tuple(before.placings[-1]), *(tuple(g) for g in before.placings[:-1]))
    fixed = _corrected(name, events, loser_first, "score sheet misread")
    assert len(fixed) == len(events) + 1 and type(fixed[-1]).tag_name() == "game_ended"
    outcome = system.outcome(system.fold(fixed))
    assert outcome is not None and outcome.placings == loser_first
    assert (outcome.reason, outcome.adjudication) == ("adjudicated", "correction")
    assert fixed[-1].adjudication.by == "organiser" and fixed[-1].adjudication.note == "score sheet misread"
    assert verify(system, fixed) is None
    # corrected again: the last counts; every result stays in the stream and the rules re-decide each
    twice = _corrected(name, fixed, (tuple(seats),), "judge: a draw")
    assert system.outcome(system.fold(twice)).is_draw and verify(system, twice) is None
    # the statistics' reading: the corrected result, the game's length as played
    assert _facts(name, twice).winner == "draw" and _facts(name, twice).adjudication == "correction"
    assert _facts(name, twice).turns == _facts(name, events).turns
    assert _facts(name, twice).first_player == _facts(name, events).first_player


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_corrected_game_imports_back_from_its_text_record_and_its_json_lines(name: str) -> None:
    service = GameService(MemoryEventStore())
    events = _ended(name, "adjudicated")
    first = get_system(name).outcome(get_system(name).fold(events))
    assert first is not None
    fixed = _corrected(name, events, (tuple(first.placings[-1]), *first.placings[:-1]), "wrong seat reported")
    store_events(service, name, fixed, "g")
    record = export_record(service, "g")
    assert '[Adjudication "agreement"]' in record and '[Correction1Note "wrong seat reported"]' in record
    from_record = import_record(service, record, allow_duplicate=True)
    from_lines = import_jsonl(service, export_jsonl(service, "g"), allow_duplicate=True)
    for game_id in (from_record, from_lines):
        assert [r.event for r in service.events(game_id)] == fixed


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_running_game_or_a_correction_without_a_reason_is_refused(name: str) -> None:
    system = get_system(name)
    events = _ended(name, "concession")
    with pytest.raises(RuleError) as running:
        system.decide(system.fold(events[:-2]), correction((("p1",), ("p2",)), "too early"))
    assert running.value.code == "not_over"
    with pytest.raises(RuleError) as silent:
        system.decide(system.fold(events), Adjudicate(reason="correction", winner="p2"))
    assert silent.value.code == "reason_required"
    with pytest.raises(RuleError) as sent:
        parse_adjudication({"type": "adjudicate", "reason": "correction", "winner": "p2", "note": "mine"})
    assert sent.value.code == "unknown_reason"
