"""``ModuleSystem``: the ``GameSystem`` members that only hand a call to a system's own module functions, written
once for the systems whose object is made of them (Light Wars, L5R, Art of War, HeroScape).

A system subclasses ``ModuleSystem[State, Action, Event]``, names its functions in ``functions``
(``SystemFunctions``) and writes what is its own: its names, codec and bots, ``start`` when it is more than one
call, ``seat_counts``, ``turn``, ``outcome`` (``Outcome.of_winner`` for a winner-or-draw result) and
``sample_setup`` (``sample_pairing`` for two-seat pairings). ``redecide`` is ``engine.play.redecide_by_evolve``.
Lords of War keeps an object of its own (more seats, actions as dicts, a re-decide with the full R6 check).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.play import redecide_by_evolve
from engine.system import RecordedAction, Redecided, Seat
from events import Codec, Event

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E", bound=Event)
T = TypeVar("T")


@dataclass(frozen=True)
class SystemFunctions(Generic[S, A, E]):
    """A system's module functions, one per ``GameSystem`` member that only calls it (``engine.system`` documents
    each member); ``concede(player=seat)`` builds the system's concession action."""

    start: Callable[[dict[str, Any]], tuple[E, ...]]
    initial_state: Callable[[], S]
    decide: Callable[[S, A], tuple[E, ...]]
    evolve: Callable[[S, E], S]
    fold: Callable[[Iterable[E], S | None], S]
    parse_action: Callable[[Any], A]
    legal_actions: Callable[[S, str | None], Sequence[A]]
    concede: Callable[..., A]
    state_to_builtins: Callable[[S], dict[str, Any]]
    seats: Callable[[Mapping[str, Any]], tuple[Seat, ...]]
    to_act: Callable[[S], tuple[str, ...]]
    recorded_setup: Callable[[Sequence[E]], dict[str, Any]]
    recorded_actions: Callable[[Sequence[E]], list[RecordedAction[A]]]


class ModuleSystem(Generic[S, A, E]):
    name: str
    rules_version: str
    codec: Codec[E]
    action_type: Any
    functions: SystemFunctions[S, A, E]

    # -- Rules ----------------------------------------------------------------------------------------------
    def start(self, setup: dict[str, Any]) -> tuple[E, ...]:
        return self.functions.start(setup)

    def initial_state(self) -> S:
        return self.functions.initial_state()

    def decide(self, state: S, action: A) -> tuple[E, ...]:
        """The action as given, or as JSON data (``parse_action``)."""
        return self.functions.decide(state, self.functions.parse_action(action))

    def evolve(self, state: S, event: E) -> S:
        return self.functions.evolve(state, event)

    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        return self.functions.fold(events, state)

    def parse_action(self, data: Any) -> A:
        return self.functions.parse_action(data)

    def legal_actions(self, state: S, seat: str | None = None) -> Sequence[A]:
        return self.functions.legal_actions(state, seat)

    def concession(self, seat: str) -> A:
        return self.functions.concede(player=seat)

    def state_to_builtins(self, state: S) -> dict[str, Any]:
        return self.functions.state_to_builtins(state)

    # -- Seating --------------------------------------------------------------------------------------------
    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        return self.functions.seats(setup)

    def to_act(self, state: S) -> tuple[str, ...]:
        return self.functions.to_act(state)

    # -- Records --------------------------------------------------------------------------------------------
    def recorded_setup(self, events: Sequence[E]) -> dict[str, Any]:
        return self.functions.recorded_setup(events)

    def recorded_actions(self, events: Sequence[E]) -> list[RecordedAction[A]]:
        return self.functions.recorded_actions(events)

    def redecide(self, events: Sequence[E]) -> Generator[Redecided[A, E], None, S]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))


def sample_pairing(games: Sequence[tuple[str, str, T]], index: int) -> tuple[str, str, T]:
    """Sample game ``index`` of a two-seat system's ``games`` (first army, second army, the rest): in turn, and with
    the armies swapped on every second pass through the list (so each army plays both seats)."""
    first, second, rest = games[index % len(games)]
    if index // len(games) % 2:
        first, second = second, first
    return first, second, rest


__all__ = ["ModuleSystem", "SystemFunctions", "sample_pairing"]
