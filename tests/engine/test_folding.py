"""engine.folding: evolve and fold derived from one apply (issue 29 item 2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.folding import Folding


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
