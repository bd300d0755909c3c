"""What every game system offers the rest of warlog (replay, API, CLI, tournaments, ratings): one object per system.

``replay`` and ``api`` never import a system's internals; they look a system up by name in ``engine.systems`` and
use only the protocols here. A system is one object that satisfies ``GameSystem``, which is made of small
capabilities (each a ``typing.Protocol``; a caller that needs only one asks for only that one, e.g. a rating reads
``Results``):

- ``Rules``: start, decide, evolve, fold, legal actions, the action and event types (the spine, HOUSE_STYLE).
- ``Seating``: the seats of a setup (2 to 6, with teams where the system has them), whose decision the game awaits,
  the turn number.
- ``Results``: the typed ``Outcome`` of a finished game (winners, placings with ties, reason, score per seat), and
  the system's own rule for time called (``on_time``, what ``adjudicate`` with reason ``time`` decides).
- ``Records``: a recorded event stream back to its setup and its actions, and the actions re-decided with today's
  rules (``warlog verify``, record import).
- ``SelfPlay``: sample setups and seeded bots (``warlog demo``, benchmarks, the conformance tests).

Conventions every system keeps (the conformance suite, tests/conformance, holds each registered system to them):
seat ids are ``p1``, ``p2``, ... in seating order; the first event of a game is ``game_started`` and the last is
``game_ended``; ``outcome`` is None exactly until ``game_ended`` is folded; ``state_to_builtins`` has ``seq`` and
``phase`` (``"over"`` at the end) and ``end_reason`` (the outcome's reason); ``decide`` refuses every illegal action
with a ``RuleError`` naming its rule; the same setup and bot seeds give the same events, byte for byte, on every
machine (no ``random``, clock, hash or dict order in the rules: chance comes from ``engine.prng``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

import msgspec

from engine.catalogue import CatalogueProblem
from engine.errors import RuleError
from events import RESULT_REASONS, Adjudication, Codec, Event

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT", bound=Event)
StateT_co = TypeVar("StateT_co", covariant=True)
StateT_contra = TypeVar("StateT_contra", contravariant=True)
ActionT_co = TypeVar("ActionT_co", covariant=True)

MIN_SEATS = 2
MAX_SEATS = 6  # the most seats any system has (Lords of War's team rules: 6 players)


# -- seats ----------------------------------------------------------------------------------------------------


class Seat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One seat at the table. ``id`` is ``p1``, ``p2``, ... in seating order (``index`` 0, 1, ...); ``team`` names
    the side the seat plays on where the game has teams (Lords of War's team rules: odd seats against even seats),
    else None (every seat for itself)."""

    id: str
    index: int
    team: str | None = None


class SeatCounts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How many seats a setup allows, ``min`` to ``max`` (both inclusive, 2 <= min <= max <= 6), but the counts in
    ``gaps`` (Lords of War: 2, 3, 4 or 6 players, never 5)."""

    min: int
    max: int
    gaps: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.min <= self.max <= MAX_SEATS:
            raise ValueError(f"seat counts {self.min}..{self.max} are not within {MIN_SEATS}..{MAX_SEATS}")
        if any(not self.min < gap < self.max for gap in self.gaps):
            raise ValueError(f"gaps {self.gaps} must lie strictly between {self.min} and {self.max}")

    def __contains__(self, count: object) -> bool:
        return isinstance(count, int) and self.min <= count <= self.max and count not in self.gaps

    @property
    def counts(self) -> tuple[int, ...]:
        """Every allowed count, smallest first."""
        return tuple(n for n in range(self.min, self.max + 1) if n not in self.gaps)

    def __str__(self) -> str:
        counts = [str(n) for n in self.counts]
        if len(counts) == 1:
            return counts[0]
        if not self.gaps:
            return f"{self.min} to {self.max}"
        return f"{', '.join(counts[:-1])} or {counts[-1]}"


def seat_id(index: int) -> str:
    """The contract's seat id of the seat at ``index`` (0 -> ``p1``)."""
    return f"p{index + 1}"


# -- outcome --------------------------------------------------------------------------------------------------

ADJUDICATED = "adjudicated"  # the end reason of a game ended by ``adjudicate`` (engine.adjudication)


class Outcome(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The result of a finished game, as tournaments, tie-breaks and ratings read it (never a state's keys).

    ``placings``: every seat exactly once, in finishing order, seats that tie (or a team's members) grouped
    together: ``(("p2",), ("p1",))``; a draw is one group holding every seat. ``winners``: the seats of the first
    group, or ``()`` when nobody wins (always so for a draw; also a game ended without a result). ``reason``: why
    the game ended, in the system's words (Lords of War: ``kills``, ``commanders``, ``exhausted``, ``concession``),
    or ``adjudicated`` for a game the scorekeeper ended off the board (``engine.adjudication``), whose
    ``adjudication`` then says why (``time``, ``agreement``, ``stalled``, ``judge``; ``correction``: a tournament's
    organiser corrected the result after the game ended): statistics count such results
    apart, never as a win by the rules. ``scores``: a number per seat that the system scores (Lords of War: cards
    destroyed), for tie-breaks; every seat has one, or none has.
    """

    winners: tuple[str, ...]
    placings: tuple[tuple[str, ...], ...]
    reason: str
    scores: dict[str, int] = {}
    adjudication: str | None = None  # the adjudication's reason when ``reason`` is ``adjudicated``

    def __post_init__(self) -> None:
        seats = [seat for group in self.placings for seat in group]
        if not self.placings or any(not group for group in self.placings):
            raise ValueError(f"placings must be non-empty groups of seats: {self.placings!r}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"a seat is placed twice: {self.placings!r}")
        if self.winners and sorted(self.winners) != sorted(self.placings[0]):
            raise ValueError(f"winners {self.winners!r} are not the first placing {self.placings[0]!r}")
        if self.winners and len(self.placings) == 1:
            raise ValueError("every seat placed together is a draw: no winners")
        if self.scores and sorted(self.scores) != sorted(seats):
            raise ValueError(f"scores {sorted(self.scores)} are not for the placed seats {sorted(seats)}")
        if not self.reason:
            raise ValueError("an outcome has a reason")
        if (self.reason == ADJUDICATED) != (self.adjudication is not None):
            raise ValueError(f"an adjudicated outcome (and only one) says why it was adjudicated: {self.reason!r}, "
                             f"{self.adjudication!r}")
        if self.adjudication is not None and self.adjudication not in RESULT_REASONS:
            raise ValueError(f"unknown adjudication reason {self.adjudication!r}")

    @classmethod
    def ranked(
        cls, placings: Sequence[Sequence[str]], reason: str, scores: Mapping[str, int] | None = None
    ) -> Outcome:
        """The outcome of these placings: the first group wins, unless it holds every seat (a draw)."""
        groups = tuple(tuple(group) for group in placings)
        winners = groups[0] if len(groups) > 1 else ()
        return cls(winners=winners, placings=groups, reason=reason, scores=dict(scores or {}))

    @classmethod
    def of_winner(
        cls, seats: Sequence[str], winner: str | None, reason: str, scores: Mapping[str, int] | None = None,
        adjudication: Adjudication | None = None,
    ) -> Outcome:
        """One winner placed first and every other seat together after it; no winner: a draw (every seat together).
        An ``adjudication`` (a game the scorekeeper ended) gives its own placings instead (``adjudicated``)."""
        if adjudication is not None:
            return cls.adjudicated(adjudication, scores)
        if winner is None:
            return cls.ranked([seats], reason, scores)
        return cls.ranked([(winner,), tuple(seat for seat in seats if seat != winner)], reason, scores)

    @classmethod
    def adjudicated(cls, adjudication: Adjudication, scores: Mapping[str, int] | None = None) -> Outcome:
        """The outcome of a game ended by ``adjudicate``: the adjudication's placings, reason ``adjudicated``."""
        groups = adjudication.placings
        return cls(winners=groups[0] if len(groups) > 1 else (), placings=groups, reason=ADJUDICATED,
                   scores=dict(scores or {}), adjudication=adjudication.reason)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(seat for group in self.placings for seat in group)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def place_of(self, seat: str) -> int:
        """The 1-based place of ``seat`` (tied seats share a place; the next place skips, like 1, 1, 3)."""
        place = 1
        for group in self.placings:
            if seat in group:
                return place
            place += len(group)
        raise KeyError(f"{seat!r} is not placed in this outcome")


class TimeRuling(NamedTuple):
    """What a system's own rule for time called gives (``Results.on_time``): the placings (every seat once, in
    finishing order, ties and a team's seats together; one group is a draw) and one sentence saying why, in the
    game's words ("p1 destroyed more cards, 12 to 9")."""

    placings: tuple[tuple[str, ...], ...]
    explanation: str

    @classmethod
    def of_winner(cls, seats: Sequence[str], winner: str | None, explanation: str) -> TimeRuling:
        """``winner`` first and every other seat after it; None: a draw (every seat together)."""
        if winner is None:
            return cls((tuple(seats),), explanation)
        return cls(((winner,), tuple(seat for seat in seats if seat != winner)), explanation)


# -- records --------------------------------------------------------------------------------------------------


class RecordedAction(NamedTuple, Generic[ActionT]):
    """One action of a recorded game: ``events[start:stop]`` are the events it produced; ``seat`` took it."""

    start: int
    stop: int
    seat: str
    action: ActionT


class Redecided(NamedTuple, Generic[ActionT, EventT]):
    """A recorded action decided again with today's rules: ``outcome`` is the events they give (compare with
    ``events[start:stop]``) or the ``RuleError`` they raise."""

    start: int
    stop: int
    seat: str
    action: ActionT
    outcome: tuple[EventT, ...] | RuleError


# -- bots -----------------------------------------------------------------------------------------------------


class Bot(Protocol[StateT_contra, ActionT_co]):
    """Chooses a legal action for ``seat`` (a seat ``to_act`` awaits). Deterministic: the same seed (given to its
    factory) and the same states give the same choices; randomness only from ``engine.prng``."""

    def choose(self, state: StateT_contra, seat: str) -> ActionT_co: ...


BotFactory = Callable[[int], Bot[StateT, ActionT]]  # seed -> a bot


# -- the capabilities -----------------------------------------------------------------------------------------


@runtime_checkable
class Rules(Protocol[StateT, ActionT, EventT]):
    """The spine: ``decide`` checks, ``evolve`` trusts (HOUSE_STYLE)."""

    # Read-only members (a frozen ``engine.definition.System`` has them as fields; any object with them will do).
    @property
    def name(self) -> str: ...  # "lords-of-war": the registry key, the contract's system name
    @property
    def rules_version(self) -> str: ...  # bumps whenever decide() changes behaviour
    @property
    def codec(self) -> Codec[EventT]: ...  # the system's event union, JSON and msgpack, with upcasters
    @property
    def action_type(self) -> Any: ...  # the tagged union of actions (msgspec Structs): a type form for msgspec

    def start(self, setup: dict[str, Any]) -> tuple[EventT, ...]:
        """Validate a game setup (the body of POST /games minus tokens) and return the opening events
        (``game_started`` and whatever the setup itself causes, e.g. dealing). Raises SetupError."""
        ...

    def initial_state(self) -> StateT:
        """The state before any event."""
        ...

    def decide(self, state: StateT, action: ActionT) -> tuple[EventT, ...]:
        """Check an action against the rules; return every event it causes. Raises RuleError (code, rule)."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Apply one event; trusts its input, never re-runs a rule."""
        ...

    def fold(self, events: Iterable[EventT], state: StateT | None = None) -> StateT:
        """``evolve`` over ``events`` from ``state`` (None: ``initial_state()``): the same state as evolving them one
        by one, at the system's fastest (a reader that stepped through part of a stream, as the statistics' core
        does through a game's opening, folds the rest on from where it stopped)."""
        ...

    def parse_action(self, data: Any) -> ActionT:
        """Plain data -> typed action. Raises RuleError(code="malformed") on a bad shape."""
        ...

    def legal_actions(self, state: StateT, seat: str | None = None) -> Sequence[ActionT]:
        """Every legal action of ``seat`` (None: the first seat ``to_act`` awaits), for bots and clients; empty for
        a seat the game does not await. A system may leave out, and must document, actions legal at any time
        (``concession``) and actions that carry data no state can enumerate (Lords of War: the shots of a
        placement, a table-mode draw naming its card, a table-mode forced placement with its revealed hand)."""
        ...

    def concession(self, seat: str) -> ActionT:
        """The action by which ``seat`` concedes (every system records concessions; bots' safety net)."""
        ...

    def state_to_builtins(self, state: StateT) -> dict[str, Any]:
        """The state as plain JSON data in the system's documented shape (``view=all``)."""
        ...


@runtime_checkable
class Seating(Protocol[StateT_contra]):
    """Who sits at the table, and whose decision the game awaits."""

    def seat_counts(self, setup: Mapping[str, Any] | None = None) -> SeatCounts:
        """How many seats ``setup`` allows (its variant may decide: team rules, three players); None: every count
        the system allows in some setup."""
        ...

    def seats(self, setup: Mapping[str, Any]) -> tuple[Seat, ...]:
        """The seats of a setup, in seating order. Raises SetupError when the players do not fit the system."""
        ...

    def to_act(self, state: StateT_contra) -> tuple[str, ...]:
        """The seats whose action the game awaits now, in the order they are expected; empty before the start and
        once the game is over. One seat in a turn-based moment; several where a system collects choices made at
        the same time (HeroScape's order markers, Light Wars' screened deployment), each seat's in any order.
        A concession is legal whoever is awaited."""
        ...

    def turn(self, state: StateT_contra) -> int:
        """The number of the current turn (or round), as the system counts them; 0 before the first. The game
        length of statistics."""
        ...


@runtime_checkable
class Results(Protocol[StateT_contra]):
    def outcome(self, state: StateT_contra) -> Outcome | None:
        """The result once the game is over (``game_ended`` folded); None while it runs."""
        ...

    def on_time(self, state: StateT_contra) -> TimeRuling:
        """The result of the running game in ``state`` if time is called now, by the system's own rule (its
        docs/<system>.md): what ``adjudicate`` with reason ``time`` and no winner decides, with the sentence saying
        why (shown in the game's explanations)."""
        ...


@runtime_checkable
class Stalling(Protocol[StateT_contra]):
    """Optional: a system that can tell a game no longer moves towards an end (a rule of its own, e.g. L5R's R9).
    ``engine.play.play`` (bot games) ends such a game as a draw by ``adjudicate`` with reason ``stalled``. A
    ``engine.definition.System`` without such a rule holds None as its ``is_stalled``: ask ``stalls`` rather than
    ``isinstance``."""

    def is_stalled(self, state: StateT_contra) -> bool:
        """Whether the running game in ``state`` is stalled by the system's rule."""
        ...


@runtime_checkable
class Catalogues(Protocol):
    """Optional (issue 30): the system plays a catalogue a user brings, a JSON document of its game data (cards,
    armies, decks, maps; ``engine.catalogue``). A game names one in its setup (``setup["catalogue"]``: the
    document); without one it plays ``default()``. A ``engine.definition.System`` that takes no catalogue yet
    holds None as its ``catalogues``: ask ``catalogues_of``."""

    def schema(self) -> dict[str, Any]:
        """The JSON Schema (2020-12) of the system's catalogue document (``GET /schemas/{system}/catalogue``)."""
        ...

    def default(self) -> dict[str, Any]:
        """The built-in game data as a catalogue document, with its ``name`` and ``version`` labels."""
        ...

    def problems(self, document: Any) -> tuple[CatalogueProblem, ...]:
        """Every place ``document`` does not have the schema's shape (by JSON path, ``rule`` None), then every rule
        of the system it cannot be played by (naming the rule). Empty: a playable catalogue."""
        ...


def catalogues_of(system: object) -> Catalogues | None:
    """The ``Catalogues`` capability of ``system``, or None when it takes no catalogue."""
    capability = getattr(system, "catalogues", None)
    return capability if isinstance(capability, Catalogues) else None


def stalls(system: object, state: Any) -> bool:
    """Whether ``system`` tells stalled games (``Stalling``: an ``is_stalled`` that is not None) and the game in
    ``state`` is one by its rule."""
    rule = getattr(system, "is_stalled", None)
    return rule is not None and bool(rule(state))


@runtime_checkable
class Records(Protocol[StateT_co, ActionT, EventT]):
    """A recorded stream back to what the players did: import and ``warlog verify`` need nothing system-specific."""

    def recorded_setup(self, events: Sequence[EventT]) -> dict[str, Any]:
        """The setup that ``start`` turns into this stream's opening (from its ``game_started``). Raises
        StreamError when the stream does not start with ``game_started``."""
        ...

    def recorded_actions(self, events: Sequence[EventT]) -> list[RecordedAction[ActionT]]:
        """Each action after the opening (``events[:first.start]``), with the span of events it produced. The
        spans follow each other without gaps to the end of the stream. Raises StreamError for a stream that no
        actions can have produced."""
        ...

    def redecide(self, events: Sequence[EventT]) -> Generator[Redecided[ActionT, EventT], None, StateT_co]:
        """Each recorded action decided again with today's rules against the state as recorded before it (the
        state moves on by the recorded events, so history stays as recorded). The generator's value is the state
        after every event. Raises StreamError as ``recorded_actions``."""
        ...


@runtime_checkable
class SelfPlay(Protocol[StateT_contra, ActionT_co]):
    """Games without people: ``warlog demo``, benchmarks, property and conformance tests."""

    @property
    def bots(self) -> Mapping[str, BotFactory[StateT_contra, ActionT_co]]: ...  # "random", "greedy": seed -> bot

    def sample_setup(self, index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        """A valid setup, for demos and tests: ``index`` walks through the system's armies and variants, ``seed``
        is the game's seed, ``seats`` the number of seats (None: the system's first choice for ``index``).
        Raises SetupError for a seat count the system does not allow."""
        ...


@runtime_checkable
class GameSystem(
    Rules[StateT, ActionT, EventT],
    Seating[StateT],
    Results[StateT],
    Records[StateT, ActionT, EventT],
    SelfPlay[StateT, ActionT],
    Protocol[StateT, ActionT, EventT],
):
    """A complete game system: every capability above. Register it in ``engine.systems``."""


AnySystem = GameSystem[Any, Any, Any]  # a system whose types the caller does not know (the registry's view)


__all__ = [
    "ADJUDICATED",
    "MAX_SEATS",
    "MIN_SEATS",
    "AnySystem",
    "Bot",
    "BotFactory",
    "Catalogues",
    "GameSystem",
    "Outcome",
    "RecordedAction",
    "Records",
    "Redecided",
    "Results",
    "Rules",
    "Seat",
    "SeatCounts",
    "Seating",
    "SelfPlay",
    "Stalling",
    "TimeRuling",
    "catalogues_of",
    "seat_id",
    "stalls",
]
