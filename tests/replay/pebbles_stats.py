"""Pebbles' replay parts with statistics of its own: the test-only system of tests/plugins/pebbles (three or
four seats, teams, a hidden bonus per seat) plugged into the statistics through the protocols only, touching no
shared code: labels for the core (a clan per seat), its own table (``pebbles_takes``, from its own migration chain
in tests/replay/pebbles_sql/), its own statistic (``takes``) and its Parquet export.

The views, explanations, record syntax and terminal picture are pebbles' own (warlog_pebbles.replay_parts);
``registered()`` registers pebbles, its replay part these, for a ``with`` block.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import warlog_pebbles.rules as pb
from warlog_pebbles.replay_parts import PEBBLES_REPLAY

from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent
from replay.analytics.stats import Filters, sample_games
from replay.store.sql import SqlFolder
from tests.plugins.installed import pebbles_registered

PEBBLES = pb.PEBBLES
CLANS = ("stones", "shells")  # seat index even: stones, odd: shells


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
            columns = {f: [getattr(r, f) for r in rows] for f in TakeRow.__struct_fields__}
            conn.execute(self.sql("insert_takes"), columns)

    def clear(self, conn: Any) -> None:
        conn.execute(self.sql("clear_takes"))

    def takes(self, conn: Any, filters: Filters) -> Takes:
        rows = conn.execute(self.sql("stats_takes"), filters.common()).fetchall()
        total = sum(n for _, n in rows)
        return Takes(filters, sample_games(conn, filters), [TakeCount(c, n, n / total) for c, n in rows])


ANALYTICS = PebblesAnalytics()
# pebbles' replay parts (warlog_pebbles.replay_parts) with its statistics added
PLUGIN = dataclasses.replace(PEBBLES_REPLAY, labels=ANALYTICS, analytics=ANALYTICS)


@contextmanager
def registered() -> Iterator[None]:
    """Pebbles registered, its replay part ``PLUGIN``, for a ``with`` block (gone after, whatever happens)."""
    with pebbles_registered(replay=PLUGIN):
        yield
