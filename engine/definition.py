"""``System``: a game system as one plain frozen dataclass of its functions and values, the object the registry
holds and every consumer reaches through the capability protocols of ``engine.system``.

A system writes, in ``engine/<system>/__init__.py``::

    SYSTEM: GameSystem[State, Action, Event] = System(
        name=..., rules_version=..., codec=CODEC, action_type=Action, folding=FOLDING,
        start=start, decide=decide, parse_action=parse_action, legal_actions=legal_actions, ...,
    )

Each field is the system's own function (or value), so a caller is one attribute away from it
(``get_system(name).decide`` is the rules' ``decide``): there is no class to forward through. The annotation is
what makes mypy prove the system complete and its types consistent (``mypy``: strict on ``engine/``).

What the object derives rather than takes:

- ``initial_state``, ``evolve`` and ``fold`` come from ``folding``: the system's ``engine.folding.Folding`` (one
  ``apply`` on a mutable working state). Until a system's thaw/apply/freeze land it passes its existing functions
  as ``Unfolded(initial_state, evolve, fold)``; the switch is the one line ``folding=FOLDING``.
- ``redecide`` is ``engine.play.redecide_by_evolve`` over the object's own functions, unless the system gives
  ``own_redecide`` (Lords of War: its re-decide with the full R6 check).

A system whose rules take only its players' actions writes ``SYSTEM = with_scorekeeper(System(...), adjudicated)``:
the framework adds the scorekeeper's ``Adjudicate`` (``engine.adjudication``) to its action type, ``parse_action``,
``decide`` and ``recorded_actions``, so the system declares only its own functions (its ``adjudicated``: the
``game_ended`` of an adjudication). Lords of War and pebbles decide it in their own rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, cast

from engine.adjudication import Adjudicate, decide_or_adjudicate, parse_or_adjudicate, recorded_with_adjudication
from engine.play import redecide_by_evolve
from engine.system import BotFactory, Catalogues, Outcome, RecordedAction, Redecided, Seat, SeatCounts, TimeRuling
from events import Codec, Event

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E", bound=Event)
T = TypeVar("T")
S_co = TypeVar("S_co", covariant=True)
A_co = TypeVar("A_co", covariant=True)
S_contra = TypeVar("S_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


# -- the members whose parameters have defaults (a plain ``Callable`` cannot say so) -----------------------------


class Fold(Protocol[S, E_contra]):
    def __call__(self, events: Iterable[E_contra], state: S | None = None, /) -> S: ...


class LegalActions(Protocol[S_contra, A_co]):
    def __call__(self, state: S_contra, seat: str | None = None, /) -> Sequence[A_co]: ...


class SeatCountsOf(Protocol):
    def __call__(self, setup: Mapping[str, Any] | None = None, /) -> SeatCounts: ...


class SampleSetup(Protocol):
    def __call__(self, index: int, seed: int, seats: int | None = None, /) -> dict[str, Any]: ...


class Redecide(Protocol[S_co, A, E]):
    def __call__(self, events: Sequence[E], /) -> Generator[Redecided[A, E], None, S_co]: ...


class Folds(Protocol[S, E_contra]):
    """What ``System`` reads of a system's folding: ``engine.folding.Folding`` has it (and ``Unfolded``)."""

    @property
    def initial(self) -> Callable[[], S]: ...

    def evolve(self, state: S, event: E_contra, /) -> S: ...

    def fold(self, events: Iterable[E_contra], state: S | None = None, /) -> S: ...


@dataclass(frozen=True, slots=True)
class Unfolded(Generic[S, E]):
    """A system's ``initial``, ``evolve`` and ``fold`` as it wrote them, for a system whose state has no
    ``engine.folding.Folding`` yet (issue 29 item 2 replaces each with its ``FOLDING``, then this goes)."""

    initial: Callable[[], S]
    evolve: Callable[[S, E], S]
    fold: Fold[S, E]


# -- the system object ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class System(Generic[S, A, E]):
    """A game system: every member of ``engine.system.GameSystem`` (``engine.system`` documents each), as the
    system's own functions and values. ``is_stalled`` is the optional ``Stalling`` capability (None: the system
    has no such rule), ``catalogues`` the optional ``Catalogues`` (None: it plays only its built-in data). A
    system is one object: hashed and compared by identity (callers cache per system)."""

    # -- Rules
    name: str
    rules_version: str
    codec: Codec[E]
    action_type: Any
    folding: Folds[S, E]  # initial_state, evolve and fold are its
    start: Callable[[dict[str, Any]], tuple[E, ...]]
    decide: Callable[[S, A], tuple[E, ...]]
    parse_action: Callable[[Any], A]
    legal_actions: LegalActions[S, A]
    concession: Callable[[str], A]
    state_to_builtins: Callable[[S], dict[str, Any]]
    # -- Seating
    seat_counts: SeatCountsOf
    seats: Callable[[Mapping[str, Any]], tuple[Seat, ...]]
    to_act: Callable[[S], tuple[str, ...]]
    turn: Callable[[S], int]
    # -- Results
    outcome: Callable[[S], Outcome | None]
    on_time: Callable[[S], TimeRuling]
    # -- Records
    recorded_setup: Callable[[Sequence[E]], dict[str, Any]]
    recorded_actions: Callable[[Sequence[E]], list[RecordedAction[A]]]
    own_redecide: Redecide[S, A, E] | None = None  # None: redecide_by_evolve over this object's functions
    # -- SelfPlay
    bots: Mapping[str, BotFactory[S, A]]
    sample_setup: SampleSetup
    # -- Stalling (optional)
    is_stalled: Callable[[S], bool] | None = None
    # -- Catalogues (optional, issue 30): None = the system plays only its built-in data
    catalogues: Catalogues | None = None

    # derived in __post_init__ (so dataclasses.replace derives them anew from the new object's fields)
    initial_state: Callable[[], S] = field(init=False, repr=False, compare=False)
    evolve: Callable[[S, E], S] = field(init=False, repr=False, compare=False)
    fold: Fold[S, E] = field(init=False, repr=False, compare=False)
    redecide: Redecide[S, A, E] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derived: dict[str, Any] = {
            "initial_state": self.folding.initial,
            "evolve": self.folding.evolve,
            "fold": self.folding.fold,
            "redecide": self.own_redecide or self._redecide_by_evolve,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def _redecide_by_evolve(self, events: Sequence[E]) -> Generator[Redecided[A, E], None, S]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))


def with_scorekeeper(system: System[S, A, E], adjudicated: Callable[[S, Adjudicate], E]
                     ) -> System[S, A | Adjudicate, E]:
    """``system``, whose rules take only its players' actions, with the scorekeeper's ``Adjudicate`` added
    (``engine.adjudication``): its ``action_type`` and ``parse_action`` take it, ``decide`` ends the game with the
    ``game_ended`` of ``adjudicated(state, action)`` (the system's own, which checks it by ``adjudicate``), and
    ``recorded_actions`` recovers it from an adjudicated ``game_ended`` (always a stream's last event). Every other
    member is the system's as given; ``redecide`` is derived anew over the added ones."""
    added = cast(System[S, A | Adjudicate, E], system)  # the same members, read as taking the added action too
    return dataclasses.replace(
        added, action_type=system.action_type | Adjudicate,
        decide=decide_or_adjudicate(system.decide, system.parse_action, adjudicated),
        parse_action=parse_or_adjudicate(system.parse_action),
        recorded_actions=recorded_with_adjudication(system.recorded_actions),
    )


# -- small helpers the systems share ----------------------------------------------------------------------------


def conceding(concede: Callable[..., T]) -> Callable[[str], T]:
    """``concession`` from a system's concession action taking ``player=`` (``conceding(Concede)("p2")`` is
    ``Concede(player="p2")``)."""

    def concession(seat: str) -> T:
        return concede(player=seat)

    return concession


def sample_pairing(games: Sequence[tuple[str, str, T]], index: int) -> tuple[str, str, T]:
    """Sample game ``index`` of a two-seat system's ``games`` (first army, second army, the rest): in turn, and with
    the armies swapped on every second pass through the list (so each army plays both seats)."""
    first, second, rest = games[index % len(games)]
    if index // len(games) % 2:
        first, second = second, first
    return first, second, rest


def fixed_seats(counts: SeatCounts) -> SeatCountsOf:
    """``seat_counts`` of a system whose every setup allows the same ``counts``."""

    def seat_counts(setup: Mapping[str, Any] | None = None) -> SeatCounts:
        return counts

    return seat_counts


__all__ = ["Fold", "Folds", "LegalActions", "Redecide", "SampleSetup", "SeatCountsOf", "System", "Unfolded",
           "conceding", "fixed_seats", "sample_pairing", "with_scorekeeper"]
