"""The statistics' vocabulary, shared by the game-agnostic core (``replay.analytics``) and each system's own part
(``replay/<system>/analytics.py``, behind ``replay.plugin.Analytics``): what the projector reads of a game, what a
system tells it, and how a statistic is described once for HTTP, the command line and the remote client.

Light on purpose (msgspec and the standard library): ``replay.plugin`` imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

# proj_games columns that hold a game's settings (migration 002 made them for the first system; a system fills
# those that mean something to it through ``GameLabels.settings`` and keeps any other setting in its own tables)
GAME_SETTINGS = ("intermediate", "unbounded", "kill_target", "command_target")


class GameHeader(msgspec.Struct, frozen=True):
    """What the projection needs from the store's ``games`` record."""

    game_id: str
    system: str
    created_at: str
    tournament: str | None = None
    metadata: dict[str, Any] = {}


class StreamEvent(msgspec.Struct, frozen=True):
    """One stored event of a game, decoded (``event`` is None for a system this build does not know)."""

    seq: int
    recorded_at: str
    event: Any


class GameLabels(msgspec.Struct, frozen=True, kw_only=True):
    """What the core needs to know of a game that its engine's protocol does not say (``replay.plugin.Labels``)."""

    armies: dict[str, str] = {}  # seat -> its army / faction / clan label (the `army` filter, win rates by army)
    variant: str | None = None  # the label the `variant` filter matches, e.g. "standard"
    rules_version: str | None = None  # the rules version the game was recorded under
    mode: str | None = None  # sealed | table
    settings: dict[str, Any] = {}  # values of proj_games' GAME_SETTINGS columns that apply to the system


class SeatFacts(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a game as the core reads it."""

    id: str  # p1, p2, ...
    index: int
    team: str | None  # its side where the game has teams
    player: str  # the name played under (the identity of ratings and head-to-head)
    army: str  # the system's label ('' when it gives none)
    place: int | None  # 1 first, tied seats share a place (1, 1, 3); None while the game runs
    score: int | None  # the outcome's score of the seat; None when the system scores none (or while running)
    result: str | None  # win | draw | loss; None while running or for a game that ended without a result
    went_first: bool


class GameFacts(msgspec.Struct, frozen=True, kw_only=True):
    """The core's reading of one game, through the engine's protocol and the system's labels. A system's
    ``Analytics.project`` gets it with the game's stream, so its rows carry the same results and filters."""

    header: GameHeader
    labels: GameLabels
    seats: tuple[SeatFacts, ...]
    first_player: str | None  # the seat the game first awaited in turn 1 (or, if it never got there, at all)
    winner: str | None  # a seat, seats joined by '+' (a team, a tie for first), 'draw'; None while running
    end_reason: str | None  # 'adjudicated' for a game the scorekeeper ended (adjudication says why)
    turns: int  # the last turn a seat acted in (concessions aside): the game's length
    finished: bool
    ended_at: str | None  # recorded_at of the game's last event, once it is over
    played_on: str  # YYYY-MM-DD of the start: what the date filters compare
    last_seq: int
    adjudication: str | None = None  # the adjudication's reason (time | agreement | stalled | judge), if adjudicated

    def seat(self, seat_id: str) -> SeatFacts | None:
        return next((s for s in self.seats if s.id == seat_id), None)

    def filter_columns(self) -> dict[str, Any]:
        """The columns every projection table has (the core's and a system's), so the filters read a table alone."""
        header, labels = self.header, self.labels
        return {"system": header.system, "rules_version": labels.rules_version, "variant": labels.variant,
                "tournament": header.tournament, "played_on": self.played_on, "finished": self.finished}


def column_lists(rows: Sequence[msgspec.Struct], kind: type[msgspec.Struct]) -> dict[str, list[Any]]:
    """Rows as one list per column, by field name (the ``proj_insert_*`` statements unnest them)."""
    return {name: [getattr(row, name) for row in rows] for name in kind.__struct_fields__}


def store_facts(conn: Any, sql: Callable[[str], str], prefix: str, tables: Sequence[tuple[str, type[msgspec.Struct]]],
                games: Sequence[tuple[GameFacts, Any]], rewritten: Sequence[str]) -> None:
    """A system's fact tables, one per ``(name, row type)`` of ``tables``, written by its statements
    ``<prefix>_delete_<name>`` and ``<prefix>_insert_<name>`` (``sql``: its folder): a rewritten game's rows taken
    out, then the rows of the finished games inserted (a game's rows have one list per table, by the table's name)."""
    if rewritten:
        for name, _ in tables:
            conn.execute(sql(f"{prefix}_delete_{name}"), {"game_ids": list(rewritten)})
    finished = [rows for game, rows in games if game.finished]
    for name, kind in tables:
        found = [row for rows in finished for row in getattr(rows, name)]
        if found:
            conn.execute(sql(f"{prefix}_insert_{name}"), column_lists(found, kind))


def clear_facts(conn: Any, sql: Callable[[str], str], prefix: str,
                tables: Sequence[tuple[str, type[msgspec.Struct]]]) -> None:
    """Empty a system's fact tables (``<prefix>_clear_<name>``)."""
    for name, _ in tables:
        conn.execute(sql(f"{prefix}_clear_{name}"))


# -- the catalogue's entries ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Parameter:
    """A parameter of one statistic beyond the common filters: a query parameter (or path segment) on HTTP, a
    ``--flag`` of ``warlog stats``, a keyword of its compute function."""

    name: str  # snake_case: the query parameter, the compute keyword; the CLI flag is --name-with-dashes
    type: type = str  # str, bool or int
    default: Any = None
    help: str = ""  # OpenAPI description and CLI help (the CLI prefixes the statistics that take it)
    max_length: int | None = 128  # str
    ge: int | None = None  # int bounds
    le: int | None = None
    in_path: bool = False  # a segment of the route's path (``{name}``); the CLI requires its flag
    cli: bool = True  # the CLI adds a flag for it (``limit`` rides on the CLI's own --limit)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


Compute = Callable[[Any, Any, dict[str, Any], Any], Any]  # (conn, filters, parameters, cache) -> result Struct


@dataclass(frozen=True, kw_only=True)
class Statistic:
    """One statistic, described once: ``GET /stats<path>``, ``warlog stats <name>``, the remote client."""

    name: str  # `warlog stats NAME`
    path: str  # under /stats: "/armies", "/ratings/{player}/history"
    summary: str  # the OpenAPI summary
    result: type  # the msgspec Struct ``compute`` returns (the response model)
    compute: Compute
    parameters: tuple[Parameter, ...] = ()
    system: str | None = None  # the game system it belongs to; None: the core, for every system
    by_catalogue: bool = False  # a system's: its compute counts the games of ``filters.catalogue`` only (issue 30;
    # the core's always do); a system's statistic that does not is refused that filter (``unsupported_filter``)
    cache: Callable[[], Any] | None = None  # a cache kept per process (one per factory, shared by statistics)
    notes: Callable[[dict[str, Any], int | None], Sequence[Sequence[str]]] | None = None
    # ^ blocks of text ``warlog stats`` prints after the tables (the result as JSON data, the terminal's width)

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)
