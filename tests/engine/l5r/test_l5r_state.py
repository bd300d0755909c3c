"""One way to apply an L5R event (issue 29 item 2): ``apply`` changes a typed working state (``Work``) between
``thaw`` and ``freeze``; ``evolve`` and ``fold`` are both derived from them (``engine.folding.Folding``)."""

from __future__ import annotations

import functools
from typing import Any

import msgspec
import pytest

from engine.l5r import SYSTEM
from engine.l5r.state import FOLDING, State, apply, evolve, fold, freeze, initial_state, is_quiet, start_state, thaw
from engine.play import play
from events.l5r import CardDrawn, GameStarted, GoldProduced, L5REvent, Passed, PhaseStarted, TurnEnded, TurnStarted

SEED = 20261128


@functools.cache
def bot_game(index: int) -> tuple[L5REvent, ...]:
    """Sample game ``index`` played by the bots (0: sealed crab/crane; 2: table crane/lion)."""
    names = sorted(SYSTEM.bots)
    setup = SYSTEM.sample_setup(index, SEED + index)
    return tuple(play(SYSTEM, setup, (names[index % len(names)], names[(index + 1) % len(names)]),
                      max_actions=3000).events)


def states_along(events: tuple[L5REvent, ...]) -> list[State]:
    states = [initial_state()]
    for event in events:
        states.append(evolve(states[-1], event))
    return states


@pytest.mark.parametrize("index", [0, 2], ids=["sealed", "table"])
def test_freeze_of_thaw_is_the_state_at_every_step_of_a_game(index: int) -> None:
    for n, state in enumerate(states_along(bot_game(index))):
        assert freeze(thaw(state)) == state, f"after {n} events"


@pytest.mark.parametrize("index", [0, 2], ids=["sealed", "table"])
def test_applying_an_event_leaves_the_state_it_was_thawed_from_unchanged(index: int) -> None:
    events = bot_game(index)
    states = states_along(events)
    for n, event in enumerate(events):
        before = msgspec.json.encode(states[n])
        work = thaw(states[n])
        apply(work, event)
        assert msgspec.json.encode(states[n]) == before, f"event {n} ({event!r}) changed its state"
        assert freeze(work) == states[n + 1]


def test_evolve_and_fold_are_the_folding_of_thaw_apply_freeze() -> None:
    events = bot_game(0)
    assert evolve == FOLDING.evolve and fold == FOLDING.fold
    assert fold(events) == states_along(events)[-1]
    assert fold(events[40:], fold(events[:40])) == fold(events)


def test_a_work_is_typed_field_by_field() -> None:
    """The working state has no field typed ``Any`` (mypy checks ``apply`` as strictly as ``decide``)."""
    from dataclasses import fields

    from engine.l5r.state import PlayerWork, Work

    for kind in (Work, PlayerWork):
        for field in fields(kind):
            assert field.type not in (Any, "Any") and "Any" not in str(field.type), f"{kind.__name__}.{field.name}"


@pytest.mark.parametrize("index", [0, 2], ids=["sealed", "table"])
def test_r9_every_event_but_the_quiet_ones_and_the_start_marks_its_turn(index: int) -> None:
    """R9 (``quiet_since``): each step marks the turn itself; the marking steps are exactly those of the events that
    are not quiet (``is_quiet``) and not ``game_started``."""
    events = bot_game(index)
    states = states_along(events)
    kinds = set()
    for n, event in enumerate(events):
        work = thaw(msgspec.structs.replace(states[n], quiet_since=-1))
        apply(work, event)
        kinds.add(type(event))
        if isinstance(event, GameStarted):  # the state it starts anew: quiet since its start
            assert work.quiet_since == freeze(work).quiet_since == start_state(event).quiet_since
            continue
        marked = work.quiet_since == work.turn
        assert marked != is_quiet(event), f"event {n}: {type(event).__name__}"
    assert {GameStarted, Passed, PhaseStarted, TurnStarted, TurnEnded, CardDrawn, GoldProduced} <= kinds
