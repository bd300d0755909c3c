"""What a game system adds downstream of its engine: one object per system, registered in ``replay.systems``.

The shared layers (``replay.log``, ``replay.archive``, ``replay.analytics``, ``api``) never import a system's
folder and never test a system's name: they look the system's parts up by name and use only these protocols. The
engine's part of a system (rules, seats, outcome, recorded actions, bots) is ``engine.system.GameSystem``; this is
the rest, each part a small capability:

- ``Views``: what each view (``all``, ``spectator``, a seat) may see of a state and of an event;
- ``Explanations``: one line of text and a structured cause per event;
- ``RecordSyntax``: the text record's header and moves (docs/record-format.md);
- ``TerminalPicture``: the position drawn for ``warlog replay``;
- ``Labels``: what the statistics' core needs of a game beyond the engine's protocol (the seats' army labels, the
  variant label, the recorded rules version);
- ``Analytics``: the system's own projection tables, statistics, SQL and migrations (docs/statistics.md).

A system implements each part as a module or an object with these functions; ``ReplayParts`` bundles them. The last
two are optional (None): a system without them is still counted by the core statistics, with blank labels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import msgspec

from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent
from replay.archive.notation import ParsedRecord
from replay.errors import UnknownView
from replay.store.sql import SqlFolder

ALL = "all"  # the view that sees everything (and the owner of what only it may see)


@runtime_checkable
class Views(Protocol):
    """Redaction. ``view`` is ``all``, ``spectator`` or a seat id (who may ask for which is the API's business).

    A system declares its secrets once, per event (``secrets``), and what its state view hides; ``SystemViews``
    (below) redacts by that declaration and checks the view, the same for every system. The state view must show
    nothing the declared secrets of the events folded into it would not show. The replay conformance suite
    (tests/conformance/test_replay_conformance.py) holds every system to it: a view's states, events, explanations
    and records are the same whatever another seat's secrets were."""

    def secrets(self, event: Any) -> Mapping[str, Sequence[str]]:
        """The fields of ``event`` that not every view may see, by who may: a seat id (that seat and ``all``) or
        ``all`` (only ``all``: e.g. a seed that would deal every hidden card). Empty: the event is public."""
        ...

    def state_view(self, state: Any, view: str) -> dict[str, Any]:
        """The state as the system's JSON (``state_to_builtins``) minus what ``view`` may not see."""
        ...

    def redacted_event(self, event: Any, view: str) -> Any | None:
        """The typed event with what ``view`` may not see set to None; None when the view may not see it at all."""
        ...


SPECTATOR = "spectator"  # the view of someone at no seat: public information only


def sees(view: str, owner: str) -> bool:
    """Whether ``view`` may see what belongs to ``owner`` (a seat id, or ``all``): ``all`` sees everything, a seat
    its own secrets."""
    return view == ALL or view == owner


def hide_secrets(event: Any, view: str, secrets: Mapping[str, Sequence[str]]) -> Any:
    """``event`` (a msgspec Struct) with each secret field that ``view`` may not see set to None: the one redaction
    of event fields (``SystemViews.redacted_event``)."""
    hidden = {field: None for owner, fields in secrets.items() if not sees(view, owner) for field in fields}
    return msgspec.structs.replace(event, **hidden) if hidden else event


def listed_seats(data: dict[str, Any]) -> list[str]:
    """The seats of a state's JSON that lists them as ``seats: [{"id": "p1", ...}, ...]`` (the default of
    ``SystemViews.seats``); empty before the game has any."""
    return [seat["id"] for seat in data.get("seats") or ()]


def _public(event: Any) -> str | None:
    return None


@dataclass(frozen=True)
class SystemViews:
    """A system's ``Views``, from what it declares: the framework redacts its events by ``secrets`` and checks every
    view against the game's seats; the system says only what is secret and what its state view hides.

    - ``secrets(event)``: the fields not every view may see, by owner (``Views.secrets``); the events are redacted
      by this declaration and nothing else;
    - ``state_json(state)``: the state's JSON every view starts from (``state_to_builtins``, plus what the system
      derives for every view, e.g. the hands' sizes); ``all`` gets it as it is;
    - ``hide(data, state, view)``: ``data`` minus what ``view`` (``spectator`` or one of the game's seats, never
      ``all``) may not see;
    - ``seats(data)``: the seats of the state's JSON (default: its ``seats`` list); a view that is none of them is
      refused (``UnknownView``), except before the game has seats, when every seat's view is the empty state;
    - ``private(event)``: the seat whose event it is when no other view gets it at all (not streamed, not
      explained), else None (the default: every view sees every event, redacted)."""

    secrets: Callable[[Any], Mapping[str, Sequence[str]]]
    state_json: Callable[[Any], dict[str, Any]]
    hide: Callable[[dict[str, Any], Any, str], dict[str, Any]]
    seats: Callable[[dict[str, Any]], Sequence[str]] = listed_seats
    private: Callable[[Any], str | None] = _public

    def redacted_event(self, event: Any, view: str) -> Any:
        """The typed event with the fields ``view`` may not see (``secrets``) set to None; None when it is another
        seat's private event (``Any``, not ``Any | None``: a system without private events reads the result as
        its event)."""
        if view == ALL:
            return event
        owner = self.private(event)
        if owner is not None and not sees(view, owner):
            return None
        return hide_secrets(event, view, self.secrets(event))

    def state_view(self, state: Any, view: str) -> dict[str, Any]:
        """The state's JSON as ``view`` may see it. UnknownView for a seat the game does not have."""
        data = self.state_json(state)
        if view == ALL:
            return data
        seats = self.seats(data)
        if view != SPECTATOR and seats and view not in seats:
            raise UnknownView(f"unknown view {view!r}: one of {', '.join((ALL, SPECTATOR, *seats))}")
        return self.hide(data, state, view)


@runtime_checkable
class Explanations(Protocol):
    def explain(self, state_before: Any, event: Any, view: str = "all") -> tuple[str, dict[str, Any]]:
        """One line a person reads at a glance, and the structured cause (the redacted event's data plus ``rule``)."""
        ...


@runtime_checkable
class RecordSyntax(Protocol):
    """The text record of one game: the common header tags, the system's tags and its move syntax."""

    def export(self, events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all",
               comments: bool = False) -> str:
        """The record of a whole stream, as ``view`` may see it; ``comments``: each action's explanation."""
        ...

    def parse(self, text: str) -> ParsedRecord:
        """The tags, moves (typed actions) and result of one record. Raises RecordSyntaxError."""
        ...

    def setup_from_tags(self, record: ParsedRecord) -> dict[str, Any]:
        """The setup (as ``POST /games`` takes it) the header describes. Raises RecordSyntaxError."""
        ...

    def check_result(self, record: ParsedRecord, state: Any) -> None:
        """Raises RecordSyntaxError when the record's result is not the result its moves reach."""
        ...

    def record_tags(self, record: ParsedRecord) -> dict[str, str]:
        """The tags worth keeping with the stored game (event, site, round, ...)."""
        ...


@runtime_checkable
class TerminalPicture(Protocol):
    """The position for ``warlog replay``, from a state view's JSON, in text."""

    @property
    def STYLES(self) -> tuple[str, ...]:  # a module constant satisfies it
        """The picture's sizes, largest first: the terminal shows the largest that fits."""
        ...

    def render(self, state_json: dict[str, Any], style: str) -> list[str]:
        """The board (mat, map) in ``style`` as lines."""
        ...

    def headline(self, state_json: dict[str, Any]) -> str:
        """The turn and who is to do what, or how the game ended."""
        ...

    def tally(self, state_json: dict[str, Any]) -> str:
        """Scores, hands and what else a player counts, in one line."""
        ...


@runtime_checkable
class Labels(Protocol):
    def labels(self, started: Any) -> GameLabels:
        """What the statistics' core needs of a game that its engine's protocol does not say, from the game's first
        event (``game_started``): each seat's army / faction / clan label, the variant label, the rules version
        it was recorded under, the mode and the proj_games setting columns that apply."""
        ...


@runtime_checkable
class Analytics(Protocol):
    """What a system adds to the statistics: its own projection tables and statistics, with their SQL.

    ``sql``: the system's folder of statements (one per file) and its migration chain (``migrations/``), applied
    after the shared chain and recorded per chain (``system_migrations``). ``statistics``: its entries of the
    statistics catalogue (``replay.analytics.catalogue``), each with ``system`` set to the system's name.
    ``exports``: its tables for ``warlog export-parquet`` (the statement ``parquet_<table>`` of ``sql`` reads each,
    with the partition columns ``system`` and ``month``). ``army_names``: the labels the ``army`` filter knows
    before any game is played (e.g. the factions)."""

    @property
    def sql(self) -> SqlFolder: ...
    @property
    def statistics(self) -> Sequence[Statistic]: ...
    @property
    def exports(self) -> Sequence[str]: ...
    @property
    def army_names(self) -> Sequence[str]: ...

    def project(self, game: GameFacts, stream: Sequence[StreamEvent]) -> Any:
        """The system's rows of one game (whatever ``store`` takes): a pure function of its events and the core's
        reading of it (results, first player, filters)."""
        ...

    def store(self, conn: Any, games: Sequence[tuple[GameFacts, Any]], rewritten: Sequence[str]) -> None:
        """Write the rows of these games in the projector's open transaction (it commits them with the checkpoints):
        per-game rows of every game, facts of the finished ones. Facts are written once per finished game;
        ``rewritten`` are finished games whose facts were written before (the game got events again): remove
        theirs first."""
        ...

    def clear(self, conn: Any) -> None:
        """Empty every table the system projects into (``warlog reproject``; in the projector's transaction)."""
        ...


@runtime_checkable
class ReplaySystem(Protocol):
    """Read-only members, so a frozen dataclass (``ReplayParts``) or any object with these attributes satisfies it."""

    @property
    def name(self) -> str: ...  # the engine system's name
    @property
    def views(self) -> Views: ...
    @property
    def explanations(self) -> Explanations: ...
    @property
    def records(self) -> RecordSyntax: ...
    @property
    def terminal(self) -> TerminalPicture: ...
    @property
    def labels(self) -> Labels | None: ...
    @property
    def analytics(self) -> Analytics | None: ...


@dataclass(frozen=True)
class ReplayParts:
    """A system's parts, bundled (satisfies ``ReplaySystem``)."""

    name: str
    views: Views
    explanations: Explanations
    records: RecordSyntax
    terminal: TerminalPicture
    labels: Labels | None = None
    analytics: Analytics | None = None
