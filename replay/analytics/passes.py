"""What every rating model shares (Elo: ``ratings``; openskill: ``multiplayer``): the pass and its cache.

A pass is a fold over the rated games of one filter in a fixed order (the time the game ended, then game_id), so the
same games always give the same ratings. It is computed on request, and a ``PassCache`` keeps it per filter and
continues it with the games that ended since: exact, as the pass is a fold in a fixed order; redone from the first
game when a game turns up before its end (found by counting: the rows at or before the pass's last position are no
longer the rows it fed).

A model brings its maths (its pass: ``feed`` rates a batch of rows that come after everything fed so far) and two
statements (``RatingModel``): its rows after a position in that order, and how many rows it feeds at or before a
position and in all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from replay.analytics.stats import Filters
from replay.store.sql import sql

if TYPE_CHECKING:
    import duckdb

T = TypeVar("T")


class RatingPass(Protocol):
    """What the skeleton reads of a model's pass."""

    @property
    def fed(self) -> int: ...  # rows fed so far, rated or not: what the model's count statement counts

    @property
    def last(self) -> tuple[str, str] | None: ...  # (ended_at, game_id) of the last row fed; None or ("", ""): none

    def feed(self, rows: list[tuple]) -> None: ...


P = TypeVar("P", bound=RatingPass)


@dataclass(frozen=True)
class RatingModel(Generic[P]):
    """A rating model as the skeleton runs it: an empty pass and its two statements."""

    new: Callable[[], P]  # an empty pass
    rows_statement: str  # the filters' parameters, $after_ended_at, $after_game_id (NULL: from the first)
    count_statement: str  # the filters' parameters, $upto_ended_at, $upto_game_id -> (rows at or before, in all)
    parameters: Mapping[str, Any] = field(default_factory=dict)  # any other parameter of rows_statement: its default

    def rows(self, conn: duckdb.DuckDBPyConnection, filters: Filters, after: tuple[str, str] | None,
             **parameters: Any) -> list[tuple]:
        """The rows the pass feeds after the position ``after`` (None: from the first), in the rating order."""
        position = {"after_ended_at": after[0] if after else None, "after_game_id": after[1] if after else None}
        values = filters.core() | position | dict(self.parameters) | parameters
        return conn.execute(sql(self.rows_statement), values).fetchall()

    def counts(
        self, conn: duckdb.DuckDBPyConnection, filters: Filters, upto: tuple[str, str] | None
    ) -> tuple[int, int]:
        """(the rows the pass feeds at or before the position ``upto``, the rows it feeds in all)."""
        upto_ended_at, upto_game_id = upto or ("", "")
        position = {"upto_ended_at": upto_ended_at, "upto_game_id": upto_game_id}
        fed, total = conn.execute(sql(self.count_statement), filters.core() | position).fetchall()[0]
        return fed, total

    def full_pass(self, conn: duckdb.DuckDBPyConnection, filters: Filters) -> P:
        """A pass over every rated game of ``filters``, from the first."""
        done = self.new()
        done.feed(self.rows(conn, filters, None))
        return done

    def apply(self, conn: duckdb.DuckDBPyConnection, filters: Filters, cache: PassCache[P] | None,
              use: Callable[[P], T]) -> T:
        """``use(pass)`` on the up-to-date pass of ``filters``: the cache's, or (no cache) one made for the call."""
        if cache is not None:
            return cache.apply(conn, filters, use)
        return use(self.full_pass(conn, filters))


class PassCache(Generic[P]):
    """A model's passes by filter (the last ``size`` filters used), each continued with the games that ended since.
    One per process or app; callers of one filter take turns (the second waits for the first one's pass instead of
    computing its own)."""

    def __init__(self, model: RatingModel[P], size: int = 16) -> None:
        self.model = model
        self._entries: OrderedDict[tuple, tuple[threading.Lock, list[P | None]]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def apply(self, conn: duckdb.DuckDBPyConnection, filters: Filters, use: Callable[[P], T]) -> T:
        """``use(pass)`` on the up-to-date pass of ``filters``, while no other caller changes it."""
        key = tuple(sorted(filters.core().items(), key=lambda kv: kv[0]))
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = (threading.Lock(), [None])
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        lock, slot = entry
        with lock:
            cached = slot[0]
            if cached is not None:
                upto, total = self.model.counts(conn, filters, cached.last)
                if upto != cached.fed:  # a game turned up before the pass's end: redo it
                    cached = None
                elif total > upto:
                    cached.feed(self.model.rows(conn, filters, cached.last))
            if cached is None:
                cached = slot[0] = self.model.full_pass(conn, filters)
            return use(cached)
