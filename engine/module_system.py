"""``ModuleSystem``: the ``GameSystem`` members that only hand a call to a system's own module functions, written
once for the systems whose object is made of them (Light Wars, L5R, Art of War, HeroScape).

A system subclasses ``ModuleSystem[State, Action, Event]``, names its functions in ``functions``
(``SystemFunctions``) and writes what is its own: its names, codec and bots, ``start`` when it is more than one
call, ``seat_counts``, ``turn``, ``outcome`` (``Outcome.of_winner`` for a winner-or-draw result), ``sample_setup``
(``sample_pairing`` for two-seat pairings). For the scorekeeper's ``adjudicate`` (engine.adjudication) its
functions include ``adjudicated`` (the ``game_ended`` it records) and ``on_time`` (its rule for time called), and
``outcome`` passes the state's adjudication to ``Outcome.of_winner``. ``redecide`` is
``engine.play.redecide_by_evolve``. The functions are the players' actions' (``Action``); ``decide``,
``parse_action`` and ``recorded_actions`` add the scorekeeper's ``Adjudicate`` to them, so the system's action type
is ``Action | Adjudicate``.
Lords of War keeps an object of its own (more seats, actions as dicts, a re-decide with the full R6 check).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.adjudication import Adjudicate, is_adjudication, parse_adjudication, with_adjudication
from engine.play import redecide_by_evolve
from engine.system import RecordedAction, Redecided, Seat, TimeRuling
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
    on_time: Callable[[S], TimeRuling]  # the rule for time called (Results.on_time)
    adjudicated: Callable[[S, Adjudicate], E]  # the game_ended of the scorekeeper's adjudication


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

    def decide(self, state: S, action: A | Adjudicate) -> tuple[E, ...]:
        """The action as given, or as JSON data (``parse_action``); an adjudication ends the game
        (``adjudicated``)."""
        typed = self.parse_action(action)
        if isinstance(typed, Adjudicate):
            return (self.adjudicated(state, typed),)
        return self.functions.decide(state, typed)

    def evolve(self, state: S, event: E) -> S:
        return self.functions.evolve(state, event)

    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        return self.functions.fold(events, state)

    def parse_action(self, data: Any) -> A | Adjudicate:
        if is_adjudication(data):
            return parse_adjudication(data)
        return self.functions.parse_action(data)

    def legal_actions(self, state: S, seat: str | None = None) -> Sequence[A]:
        return self.functions.legal_actions(state, seat)

    def concession(self, seat: str) -> A:
        return self.functions.concede(player=seat)

    def state_to_builtins(self, state: S) -> dict[str, Any]:
        return self.functions.state_to_builtins(state)

    def adjudicated(self, state: S, action: Adjudicate) -> E:
        """The ``game_ended`` of the scorekeeper's adjudication (``engine.adjudication.adjudicate`` checks it)."""
        return self.functions.adjudicated(state, action)

    # -- Results (each system writes outcome) ---------------------------------------------------------------
    def on_time(self, state: S) -> TimeRuling:
        return self.functions.on_time(state)

    # -- Seating --------------------------------------------------------------------------------------------
    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        return self.functions.seats(setup)

    def to_act(self, state: S) -> tuple[str, ...]:
        return self.functions.to_act(state)

    # -- Records --------------------------------------------------------------------------------------------
    def recorded_setup(self, events: Sequence[E]) -> dict[str, Any]:
        return self.functions.recorded_setup(events)

    def recorded_actions(self, events: Sequence[E]) -> list[RecordedAction[A | Adjudicate]]:
        return with_adjudication(events, self.functions.recorded_actions)

    def redecide(self, events: Sequence[E]) -> Generator[Redecided[A | Adjudicate, E], None, S]:
        return redecide_by_evolve(self, events, self.recorded_actions(events))


def sample_pairing(games: Sequence[tuple[str, str, T]], index: int) -> tuple[str, str, T]:
    """Sample game ``index`` of a two-seat system's ``games`` (first army, second army, the rest): in turn, and with
    the armies swapped on every second pass through the list (so each army plays both seats)."""
    first, second, rest = games[index % len(games)]
    if index // len(games) % 2:
        first, second = second, first
    return first, second, rest


__all__ = ["ModuleSystem", "SystemFunctions", "sample_pairing"]
