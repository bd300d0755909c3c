"""Pebbles' replay parts with statistics of its own: the test-only system of tests/conformance/pebbles.py (three or
four seats, teams, a hidden bonus per seat) plugged into the statistics through the protocols only, touching no
shared code: labels for the core (a clan per seat), its own table (``pebbles_takes``, from its own migration chain
in tests/replay/pebbles_sql/), its own statistic (``takes``) and its Parquet export.

The views, explanations, record syntax and terminal picture here are small but real (the statistics tests do not
read them); ``registered()`` puts pebbles in the engine's and the replay registry for a ``with`` block.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

import tests.conformance.pebbles as pb
from engine import systems as engine_systems
from replay import systems as replay_systems
from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent
from replay.analytics.stats import Filters, sample_games
from replay.plugin import ReplayParts
from replay.records.syntax import Move, ParsedRecord, RecordSyntaxError
from replay.store.sql import SqlFolder

PEBBLES = pb.PEBBLES
CLANS = ("stones", "shells")  # seat index even: stones, odd: shells


class _Views:
    def state_view(self, state: pb.State, view: str) -> dict[str, Any]:
        data = PEBBLES.state_to_builtins(state)
        if view != "all" and state.phase != "over":
            data["bonuses"] = {seat: b for seat, b in data["bonuses"].items() if seat == view}
        return data

    def redacted_event(self, event: Any, view: str) -> Any | None:
        if isinstance(event, pb.BonusDealt) and view not in ("all", event.player):
            return None
        return event


class _Explanations:
    def explain(self, state_before: Any, event: Any, view: str = "all") -> tuple[str, dict[str, Any]]:
        data = msgspec.to_builtins(event)
        match event:
            case pb.Taken():
                return f"{event.player} takes {event.count}", data
            case pb.Conceded():
                return f"{event.player} concedes", data
            case pb.GameEnded():
                return f"the game ends ({event.reason})", data
            case _:
                return type(event).tag_name(), data


class _Records:
    """``[System "pebbles"]``, ``[Players "ann,bob,cy"]``, ``[Heap "21"]``, then a move a line: ``p1 2`` (takes two)
    or ``p1 concedes``."""

    def export(self, events: Sequence[Any], tags: dict[str, str] | None = None, view: str = "all",
               comments: bool = False) -> str:
        started = events[0]
        lines = ['[System "pebbles"]', f'[Players "{",".join(s.name for s in started.seats)}"]',
                 f'[Heap "{started.heap}"]']
        for event in events:
            if isinstance(event, pb.Taken):
                lines.append(f"{event.player} {event.count}")
            elif isinstance(event, pb.Conceded):
                lines.append(f"{event.player} concedes")
        return "\n".join(lines) + "\n"

    def parse(self, text: str) -> ParsedRecord:
        record = ParsedRecord(tags={}, tag_lines={})
        for n, line in enumerate(text.splitlines(), start=1):
            if line.startswith("["):
                name, _, value = line.strip("[]").partition(" ")
                record.tags[name], record.tag_lines[name] = value.strip('"'), n
            elif line.strip():
                seat, _, move = line.partition(" ")
                if move == "concedes":
                    record.moves.append(Move(n, pb.Concede(player=seat)))
                elif move.isdigit():
                    record.moves.append(Move(n, pb.Take(player=seat, count=int(move))))
                else:
                    raise RecordSyntaxError(n, "bad_move", f"not a pebbles move: {line!r}")
        return record

    def setup_from_tags(self, record: ParsedRecord) -> dict[str, Any]:
        names = record.tags.get("Players", "").split(",")
        return {"system": pb.NAME, "players": [{"id": f"p{i + 1}", "name": n} for i, n in enumerate(names)],
                "variant": {"heap": int(record.tags.get("Heap", "21"))}}

    def check_result(self, record: ParsedRecord, state: Any) -> None:
        return None  # the records of these tests carry no result line

    def record_tags(self, record: ParsedRecord) -> dict[str, str]:
        return {}


class _Terminal:
    STYLES = ("line",)

    def render(self, state_json: dict[str, Any], style: str) -> list[str]:
        return [f"heap: {state_json['heap']}"]

    def headline(self, state_json: dict[str, Any]) -> str:
        return f"turn {state_json['turn']}, {state_json['active'] or state_json['end_reason']}"

    def tally(self, state_json: dict[str, Any]) -> str:
        return ", ".join(f"{seat} {n}" for seat, n in state_json["taken"].items())


# -- what pebbles adds to the statistics ------------------------------------------------------------------------


class TakeCount(msgspec.Struct, frozen=True):
    count: int  # pebbles in one take
    takes: int
    share: float


class Takes(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[TakeCount]


class TakeRow(msgspec.Struct, kw_only=True):
    game_id: str
    seq: int
    seat: str
    count: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str
    heap: int


class PebblesAnalytics:
    sql = SqlFolder(Path(__file__).parent / "pebbles_sql", pb.NAME)
    exports = ("pebbles_takes",)
    army_names = CLANS

    def __init__(self) -> None:
        self.statistics = (
            Statistic(name="takes", path="/takes", summary="Pebbles per take", result=Takes, system=pb.NAME,
                      compute=lambda conn, filters, params, cache: self.takes(conn, filters)),
        )

    def labels(self, started: pb.GameStarted) -> GameLabels:
        return GameLabels(armies={s.id: CLANS[i % 2] for i, s in enumerate(started.seats)},
                          variant="teams" if started.teams else "free-for-all", rules_version=PEBBLES.rules_version)

    def project(self, game: GameFacts, stream: Sequence[StreamEvent]) -> list[TakeRow]:
        heap, rows = 0, []
        for item in stream:
            match item.event:
                case pb.GameStarted() as started:
                    heap = started.heap
                case pb.Taken() as taken:
                    rows.append(TakeRow(game_id=game.header.game_id, seq=item.seq, seat=taken.player,
                                        count=taken.count, system=game.header.system,
                                        rules_version=game.labels.rules_version, variant=game.labels.variant,
                                        tournament=game.header.tournament, played_on=game.played_on, heap=heap))
                    heap -= taken.count
        return rows

    def store(self, conn: Any, games: Sequence[tuple[GameFacts, list[TakeRow]]], rewritten: Sequence[str]) -> None:
        if rewritten:
            conn.execute(self.sql("delete_takes"), {"game_ids": list(rewritten)})
        rows = [row for game, takes in games if game.finished for row in takes]
        if rows:
            conn.execute(self.sql("insert_takes"), {f: [getattr(r, f) for r in rows] for f in TakeRow.__struct_fields__})

    def clear(self, conn: Any) -> None:
        conn.execute(self.sql("clear_takes"))

    def takes(self, conn: Any, filters: Filters) -> Takes:
        rows = conn.execute(self.sql("stats_takes"), filters.common()).fetchall()
        total = sum(n for _, n in rows)
        return Takes(filters, sample_games(conn, filters), [TakeCount(c, n, n / total) for c, n in rows])


ANALYTICS = PebblesAnalytics()
PLUGIN = ReplayParts(name=pb.NAME, views=_Views(), explanations=_Explanations(), records=_Records(),
                     terminal=_Terminal(), labels=ANALYTICS, analytics=ANALYTICS)


@contextmanager
def registered() -> Iterator[None]:
    """Pebbles in the engine's and the replay registry for a ``with`` block (gone after, whatever happens)."""
    with engine_systems.registered(PEBBLES), replay_systems.registered(PLUGIN):
        yield
