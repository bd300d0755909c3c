"""``engine.definition.System``: a system is one frozen dataclass of its functions; its ``initial_state``, ``evolve``
and ``fold`` are its folding's (issue 29 item 3), so a system's ``engine.folding.Folding`` plugs in as one field."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, get_args

import pytest

from engine.folding import Folding
from engine.light_wars import SYSTEM
from engine.play import play


class Box:
    """A working state for the test: the frozen state, replaced by each event (``apply``)."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state


def test_a_system_given_a_folding_takes_initial_evolve_and_fold_from_it() -> None:
    applied: list[str] = []

    def apply(work: Box, event: Any) -> None:
        applied.append(type(event).tag_name())
        work.state = SYSTEM.evolve(work.state, event)

    folding = Folding(SYSTEM.initial_state, Box, apply, lambda work: work.state)
    folded = dataclasses.replace(SYSTEM, folding=folding)
    events = play(SYSTEM, SYSTEM.sample_setup(0, 7)).events
    assert folded.initial_state is folding.initial
    assert folded.fold(events) == SYSTEM.fold(events)
    assert applied == [type(e).tag_name() for e in events]  # the folding's apply, once per event
    assert folded.evolve(SYSTEM.initial_state(), events[0]) == SYSTEM.evolve(SYSTEM.initial_state(), events[0])
    assert folded.decide is SYSTEM.decide and folded.name == SYSTEM.name  # the rest is the system's own


def test_a_system_is_frozen_and_its_members_are_its_functions() -> None:
    from engine.light_wars.rules import legal_actions

    assert SYSTEM.legal_actions is legal_actions  # one attribute away, no forwarding class
    with pytest.raises(dataclasses.FrozenInstanceError):
        SYSTEM.name = "other"  # type: ignore[misc]


def test_a_system_is_one_object_hashed_and_compared_by_identity() -> None:
    """Callers cache per system (``functools.cache``, dict keys): a System is hashable though it holds a dict of bots,
    and two systems are the same only when they are one object."""
    assert hash(SYSTEM) == hash(SYSTEM) and {SYSTEM: 1}[SYSTEM] == 1
    assert dataclasses.replace(SYSTEM) != SYSTEM


def test_with_scorekeeper_adds_the_adjudication_to_a_systems_own_functions_and_keeps_the_rest() -> None:
    """Issue 29 item 3: the framework owns the scorekeeper's glue. A system whose rules take only its players'
    actions declares its own functions and ``adjudicated``; ``with_scorekeeper`` adds ``Adjudicate`` to its action
    type, ``parse_action``, ``decide`` and ``recorded_actions``, and every other member stays the system's own."""
    from engine.adjudication import SCOREKEEPER, Adjudicate
    from engine.definition import with_scorekeeper
    from engine.light_wars.actions import LightWarsAction, parse_action
    from engine.light_wars.adjudication import adjudicated
    from engine.light_wars.history import recorded_actions
    from engine.light_wars.rules import decide

    players_only = dataclasses.replace(SYSTEM, action_type=LightWarsAction, decide=decide, parse_action=parse_action,
                                       recorded_actions=recorded_actions)
    system = with_scorekeeper(players_only, adjudicated)
    assert system.action_type == LightWarsAction | Adjudicate == SYSTEM.action_type
    assert (system.legal_actions, system.seats, system.outcome, system.folding) == (
        SYSTEM.legal_actions, SYSTEM.seats, SYSTEM.outcome, SYSTEM.folding)
    played = play(system, system.sample_setup(0, 7)).events
    events = played[:players_only.recorded_actions(played)[5].start]  # a game under way: six actions taken
    state = system.fold(events)
    data = {"type": "adjudicate", "winner": "p2", "reason": "judge"}
    assert system.parse_action(data) == Adjudicate(reason="judge", winner="p2")
    ended = system.decide(state, data)  # as data, parsed; and as the action
    assert ended == system.decide(state, Adjudicate(reason="judge", winner="p2")) == SYSTEM.decide(state, data)
    assert ended[-1].reason == "adjudicated" and system.outcome(system.fold(ended, state)).winners == ("p2",)
    recorded = system.recorded_actions([*events, *ended])
    assert recorded[-1].seat == SCOREKEEPER and isinstance(recorded[-1].action, Adjudicate)
    assert recorded[:-1] == players_only.recorded_actions(events)
    assert [r.action for r in system.redecide([*events, *ended])] == [r.action for r in recorded]
    with pytest.raises(Exception, match="adjudicat"):  # the players' own parse never knew it
        players_only.parse_action(data)


@pytest.mark.parametrize("name", ["l5r", "art-of-war", "light-wars", "heroscape"])
def test_each_system_without_its_own_adjudication_rule_is_built_by_with_scorekeeper(name: str) -> None:
    """No system repeats the glue: each one's decide, parse_action and recorded_actions are the framework's wrapping
    of its rules' own (engine.adjudication), its other members its own functions."""
    import importlib

    from engine.adjudication import Adjudicate
    from engine.systems import get_system

    system = get_system(name)
    package = system.legal_actions.__module__.rsplit(".", 1)[0]
    rules = importlib.import_module(f"{package}.rules")
    assert system.legal_actions is rules.legal_actions
    assert system.decide.__module__ == system.parse_action.__module__ == system.recorded_actions.__module__ == (
        "engine.adjudication")
    assert Adjudicate in get_args(system.action_type)
    source = Path(importlib.import_module(package).__file__ or "").read_text()
    assert "with_scorekeeper(System(" in source and "decide_or_adjudicate" not in source
