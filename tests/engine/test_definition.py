"""``engine.definition.System``: a system is one frozen dataclass of its functions; its ``initial_state``, ``evolve``
and ``fold`` are its folding's (issue 29 item 3), so a system's ``engine.folding.Folding`` plugs in as one field."""

from __future__ import annotations

import dataclasses
from typing import Any

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
