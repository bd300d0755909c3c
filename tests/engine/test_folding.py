"""engine.folding: evolve and fold derived from one apply (issue 29 item 2)."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest

from engine.folding import Folding
from engine.steps import Steps
from engine.systems import get_system


@dataclass(frozen=True)
class Tally:
    seq: int = 0
    marks: tuple[str, ...] = ()


@dataclass
class Work:
    seq: int
    marks: list[str] = field(default_factory=list)


def thaw(state: Tally) -> Work:
    return Work(state.seq, list(state.marks))


def apply(work: Work, event: str) -> None:
    work.seq += 1
    work.marks.append(event)


def freeze(work: Work) -> Tally:
    return Tally(work.seq, tuple(work.marks))


TALLY: Folding[Tally, Work, str] = Folding(Tally, thaw, apply, freeze)


def test_folding_evolve_applies_one_event_and_leaves_the_state_it_came_from_unchanged() -> None:
    before = Tally(2, ("a", "b"))
    after = TALLY.evolve(before, "c")
    assert after == Tally(3, ("a", "b", "c"))
    assert before == Tally(2, ("a", "b"))


def test_folding_fold_equals_evolve_one_by_one_from_any_state() -> None:
    events = ["x", "y", "z"]
    stepped = Tally()
    for event in events:
        stepped = TALLY.evolve(stepped, event)
    assert TALLY.fold(events) == stepped
    middle = TALLY.fold(events[:1])
    assert TALLY.fold(events[1:], middle) == stepped
    assert middle == Tally(1, ("x",))


def test_folding_fold_of_nothing_is_the_state_given() -> None:
    assert TALLY.fold([]) == Tally()
    assert TALLY.fold([], Tally(5, ("q",))) == Tally(5, ("q",))


# -- a system's apply as engine.steps.Steps (issue 29 item 2: the framework counts and dispatches) ---------------


@dataclass(frozen=True)
class Marks:
    seq: int = 0
    up: int = 0
    down: int = 0


@dataclass
class MarksWork:
    seq: int
    up: int
    down: int


class Stray(msgspec.Struct, frozen=True, tag="stray"):
    """An event of no built-in system."""


class Up:
    pass


class Down:
    pass


MARK_STEPS: Steps[MarksWork] = Steps("Marks")


@MARK_STEPS.on(Up)
def _up(work: MarksWork, event: Up) -> None:
    work.up += 1


@MARK_STEPS.on(Down)
def _down(work: MarksWork, event: Down) -> None:
    work.down += 1


MARKS: Folding[Marks, MarksWork, Up | Down] = Folding(
    Marks, lambda s: MarksWork(s.seq, s.up, s.down), MARK_STEPS.apply, lambda w: Marks(w.seq, w.up, w.down))


def _folded_as_evolved(events: list[Up | Down | Restart], cut: int) -> Marks:
    """``evolve`` one event at a time; ``fold`` of them all, and of those after ``cut`` from the fold of those
    before, give the same state."""
    stepped = Marks()
    for event in events:
        stepped = MARKS.evolve(stepped, event)
    assert MARKS.fold(events) == stepped
    assert MARKS.fold(events[cut:], MARKS.fold(events[:cut])) == stepped
    return stepped


def test_steps_apply_counts_each_event_and_runs_its_step_and_fold_is_evolve_one_by_one() -> None:
    assert _folded_as_evolved([Up(), Down(), Up()], 1) == Marks(3, 2, 1)
    assert MARKS.run == MARK_STEPS.run  # a stream's loop is the steps' own (the look-up inline), not apply per event


def test_steps_refuse_an_event_of_another_kind_by_the_systems_name_and_change_nothing() -> None:
    work = MarksWork(0, 0, 0)
    with pytest.raises(TypeError, match="not a Marks event: 'up'"):
        MARK_STEPS.apply(work, "up")
    with pytest.raises(TypeError, match="not a Marks event"):
        MARKS.fold([Up(), object()])
    assert work == MarksWork(0, 0, 0)  # refused before it is counted
    MARK_STEPS.check(Up | Down | Restart)
    with pytest.raises(TypeError, match=r"events without a step: \['Tally'\]"):
        MARK_STEPS.check(Up | Down | Restart | Tally)


@pytest.mark.parametrize("name", ["lords-of-war", "l5r", "art-of-war", "light-wars", "heroscape"])
def test_every_built_in_systems_fold_and_evolve_refuse_an_event_of_another_system_by_name(name: str) -> None:
    """Each system's ``apply`` is its ``Steps``: an event of another system is refused as one (a TypeError naming
    the system), in ``evolve`` and in ``fold`` alike; before, four systems answered a bare KeyError."""
    system = get_system(name)
    with pytest.raises(TypeError, match=r"not a .+ event: Stray\(\)"):
        system.evolve(system.initial_state(), Stray())
    with pytest.raises(TypeError, match=r"not a .+ event: Stray\(\)"):
        system.fold([Stray()])


class Restart:
    """A ``game_started``: the work starts over, its count of events kept as found."""


@MARK_STEPS.on(Restart)
def _restart(work: MarksWork, event: Restart) -> None:
    work.up = work.down = 0


def test_fold_counts_each_event_once_as_evolve_does_through_a_step_that_starts_the_work_over() -> None:
    """``Steps.run`` counts a stream's events at its end (no write an event): the same ``seq`` as ``apply`` one by
    one, from the initial state or any other, a restart (game_started) included."""
    stepped = _folded_as_evolved([Up(), Restart(), Down(), Up()], 2)
    assert stepped == Marks(4, 1, 1)
    assert MARKS.fold([], stepped) == stepped
