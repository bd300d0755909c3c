"""The core statistics, for every game system, over the core projections (proj_games, proj_seats, proj_opponents):
one ``replay/sql/stats_*.sql`` file each, typed results. A system's own statistics live in its folder
(``replay/<system>/analytics.py``) and use the same filters and intervals.

SQL returns counts; this module turns them into rates with 95% Wilson score intervals (and Newcombe's interval for
a difference of two rates). Every statistic takes the same ``Filters`` and reports its sample size. Only finished
games count. Definitions: docs/statistics.md.
"""

from __future__ import annotations

import json
import math
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from engine.systems import DEFAULT_SYSTEM
from replay.catalogues import defaults
from replay.store.sql import sql
from replay.systems import find_plugin

if TYPE_CHECKING:
    import duckdb

Z95 = 1.959963984540054  # two-sided 95% normal quantile


class Interval(msgspec.Struct, frozen=True):
    rate: float | None  # k / n (None when n = 0)
    low: float | None
    high: float | None

    def known(self) -> tuple[float, float, float]:
        """rate, low, high of an interval over at least one trial (ValueError when there was none)."""
        if self.rate is None or self.low is None or self.high is None:
            raise ValueError("an interval over no trials has no rate")
        return self.rate, self.low, self.high


def wilson(k: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for k successes in n trials (Wilson 1927)."""
    if n <= 0:
        return Interval(None, None, None)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = (z / (1 + z2 / n)) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends (rounding would give 0.9999...)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Interval(p, low, high)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Interval:
    """p1 - p2 with Newcombe's hybrid score interval (method 10, Newcombe 1998), built from two Wilson intervals."""
    a, b = wilson(k1, n1, z), wilson(k2, n2, z)
    if a.rate is None or a.low is None or a.high is None or b.rate is None or b.low is None or b.high is None:
        return Interval(None, None, None)  # wilson gives all three or none
    d = a.rate - b.rate
    low = d - math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2)
    high = d + math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2)
    return Interval(d, max(-1.0, low), min(1.0, high))


# -- filters ------------------------------------------------------------------------------------------------


ENDINGS = ("rules", "adjudicated", "all")  # the ``ending`` filter's values


class Filters(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every statistic can be restricted to. Dates are inclusive and compare the day a game started.

    ``ending`` (the core's statistics): games decided by their ``rules``, games the scorekeeper ended by
    ``adjudicate`` (``adjudicated``), or ``all``; None: the statistic's default, ``rules`` (``end-reasons``: ``all``).
    A system's own statistics count games decided by its rules only (docs/statistics.md)."""

    system: str = DEFAULT_SYSTEM
    date_from: date | None = None
    date_to: date | None = None
    tournament: str | None = None
    army: str | None = None
    variant: str | None = None  # standard | intermediate | unbounded | targets-K-C, joined by '+'
    rules_version: str | None = None
    min_games: int = 0  # groups (armies, matchups, cards, pairs, rated players) with fewer games are left out
    ending: Literal["rules", "adjudicated", "all"] | None = None
    catalogue: str | None = None  # issue 30: the games played on this catalogue (its id)

    def __post_init__(self) -> None:
        if self.min_games < 0:
            raise ValueError("min_games must not be negative")
        if self.date_from and self.date_to and self.date_from > self.date_to:
            raise ValueError("date_from is after date_to")

    def common(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "date_from": self.date_from,
            "date_to": self.date_to,
            "tournament": self.tournament,
            "variant": self.variant,
            "rules_version": self.rules_version,
        }

    def army_params(self) -> dict[str, Any]:
        """``common`` plus the army filter and the minimum sample, for the per-army statistics."""
        return self.common() | {"army": self.army, "min_games": self.min_games}

    def catalogue_param(self) -> str | None:
        """The catalogue filter as the statistics' SQL takes it (``$catalogue``, migration 019): a stored
        catalogue's id, or ``default:<system>`` for a system's default catalogue, whose games keep no id (the
        default is the same as none: proj_games.catalogue NULL); None: any catalogue."""
        if self.catalogue is None:
            return None
        for system, (summary, _) in defaults().items():
            if summary.id == self.catalogue:
                return f"default:{system}"
        return self.catalogue

    def own(self) -> dict[str, Any]:
        """``common`` plus the catalogue filter, for a system's own statistics (their SQL selects from
        ``game_rows(..., catalogue_is := $catalogue)``, migrations 018 and 019)."""
        return self.common() | {"catalogue": self.catalogue_param()}

    def own_army_params(self) -> dict[str, Any]:
        """``army_params`` plus the catalogue filter, for a system's own per-army statistics."""
        return self.army_params() | {"catalogue": self.catalogue_param()}

    def core(self, default: str = "rules") -> dict[str, Any]:
        """``common`` plus the ending and catalogue filters of the core's statistics (``core_rows``; ``default`` when
        no ending is asked)."""
        return self.common() | {"ending": self.ending or default, "catalogue": self.catalogue_param()}

    def core_army_params(self) -> dict[str, Any]:
        """``army_params`` plus the ending and catalogue filters, for the core's per-army statistics."""
        return self.army_params() | {"ending": self.ending or "rules", "catalogue": self.catalogue_param()}


def _rows(conn: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> list[tuple]:
    return conn.execute(sql(name), params).fetchall()


def known_armies(conn: duckdb.DuckDBPyConnection, system: str) -> list[str]:
    """The names the ``army`` filter can match: the system's own (``Analytics.army_names``, e.g. its factions) and
    every army played in a stored game of the system."""
    played = {army for (army,) in _rows(conn, "stats_known_armies", {"system": system})}
    plugin = find_plugin(system)
    named = set(plugin.analytics.army_names) if plugin is not None and plugin.analytics is not None else set()
    return sorted(played | named)


def catalogue_document(conn: duckdb.DuckDBPyConnection, filters: Filters) -> dict[str, Any] | None:
    """The document of the catalogue the statistic is filtered by (``filters.catalogue``) as the statistics'
    database holds it (its ``catalogues`` table: the store's, or the copy published beside PostgreSQL), for the names
    a system's statistics give its cards; None without the filter or for a catalogue of another system, or one the
    database does not hold (the statistics then name cards as the system's default catalogue does)."""
    if filters.catalogue is None:
        return None
    rows = _rows(conn, "catalogue_get", {"catalogue_id": filters.catalogue})
    if not rows or rows[0][1] != filters.system:
        return None
    document = rows[0][4]
    found = json.loads(document) if isinstance(document, str | bytes) else document
    return found if isinstance(found, dict) else None


def sample_games(conn: duckdb.DuckDBPyConnection, filters: Filters) -> int:
    """Finished games passing the filters (army: a seat had it)."""
    return _rows(conn, "stats_sample", filters.core() | {"army": filters.army})[0][0]


# -- win rates ----------------------------------------------------------------------------------------------


class ArmyWinRate(msgspec.Struct, frozen=True):
    army: str
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float | None
    low: float | None
    high: float | None


class ArmyWinRates(msgspec.Struct, frozen=True):
    filters: Filters
    games: int  # sample: finished games passing the filters
    rows: list[ArmyWinRate]


def army_win_rates(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> ArmyWinRates:
    """Win rate per army over its seats (wins / games; a draw is not a win), mirror matches (every seat the same
    army) left out."""
    filters = filters or Filters()
    rows = _rows(conn, "stats_army_win_rates", filters.core_army_params())
    out = []
    for army, games, wins, losses, draws in rows:
        w = wilson(wins, games)
        out.append(ArmyWinRate(army, games, wins, losses, draws, w.rate, w.low, w.high))
    return ArmyWinRates(filters, sample_games(conn, filters), out)


class Matchup(msgspec.Struct, frozen=True):
    army: str
    opponent_army: str
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float | None  # of `army` against `opponent_army`; None in a mirror cell (wins: its earlier seat's)
    low: float | None
    high: float | None


class Matchups(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    armies: list[str]  # row and column order of the matrix
    rows: list[Matchup]  # the cells (row army, column army)


def matchups(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> Matchups:
    filters = filters or Filters()
    rows = _rows(conn, "stats_matchups", filters.core_army_params())
    cells = []
    for army, opponent, games, wins, losses, draws in rows:
        w = wilson(wins, games) if army != opponent else Interval(None, None, None)  # a mirror: no army's edge
        cells.append(Matchup(army, opponent, games, wins, losses, draws, w.rate, w.low, w.high))
    armies = sorted({c.army for c in cells} | {c.opponent_army for c in cells})
    return Matchups(filters, sample_games(conn, filters), armies, cells)


class FirstPlayerRow(msgspec.Struct, frozen=True):
    army: str | None  # None: every game
    games: int
    wins: int  # won by the player who went first
    losses: int
    draws: int
    win_rate: float | None
    low: float | None
    high: float | None


class FirstPlayer(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    overall: FirstPlayerRow
    by_army: list[FirstPlayerRow]  # by the first player's army


def first_player(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> FirstPlayer:
    filters = filters or Filters()
    rows = _rows(conn, "stats_first_player", filters.core_army_params())
    out = []
    for army, games, wins, losses, draws in rows:
        w = wilson(wins, games)
        out.append(FirstPlayerRow(army, games, wins, losses, draws, w.rate, w.low, w.high))
    overall = next((r for r in out if r.army is None), FirstPlayerRow(None, 0, 0, 0, 0, None, None, None))
    return FirstPlayer(filters, sample_games(conn, filters), overall, [r for r in out if r.army is not None])


# -- distributions ------------------------------------------------------------------------------------------


class LengthBucket(msgspec.Struct, frozen=True):
    turns: int
    games: int
    share: float


class GameLength(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    mean: float | None
    median: float | None  # the lower median (a turn count that occurred)
    p10: int | None  # nearest-rank percentiles
    p90: int | None
    min: int | None
    max: int | None
    rows: list[LengthBucket]


def _nearest_rank(histogram: list[tuple[int, int]], total: int, q: float) -> int:
    rank = max(1, math.ceil(q * total))
    seen = 0
    for value, count in histogram:
        seen += count
        if seen >= rank:
            return value
    return histogram[-1][0]


def game_length(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> GameLength:
    filters = filters or Filters()
    histogram = [(t, n) for t, n in _rows(conn, "stats_game_length", filters.core() | {"army": filters.army})]
    total = sum(n for _, n in histogram)
    if total == 0:
        return GameLength(filters, 0, None, None, None, None, None, None, [])
    return GameLength(
        filters,
        total,
        sum(t * n for t, n in histogram) / total,
        float(_nearest_rank(histogram, total, 0.5)),
        _nearest_rank(histogram, total, 0.1),
        _nearest_rank(histogram, total, 0.9),
        histogram[0][0],
        histogram[-1][0],
        [LengthBucket(t, n, n / total) for t, n in histogram],
    )


class EndReason(msgspec.Struct, frozen=True):
    end_reason: str
    adjudication: str | None  # an adjudicated game's reason (time, agreement, stalled, judge): each its own row
    games: int
    share: float | None
    low: float | None
    high: float | None


class EndReasons(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[EndReason]


def end_reasons(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> EndReasons:
    filters = filters or Filters()
    rows = _rows(conn, "stats_end_reasons", filters.core("all") | {"army": filters.army})
    total = sum(n for _, _, n in rows)
    out = []
    for reason, adjudication, games in rows:
        w = wilson(games, total)
        out.append(EndReason(reason, adjudication, games, w.rate, w.low, w.high))
    return EndReasons(filters, total, out)


# -- players ------------------------------------------------------------------------------------------------


class HeadToHeadRow(msgspec.Struct, frozen=True):
    player: str
    opponent: str
    games: int
    wins: int
    losses: int
    draws: int
    score: float  # (wins + draws / 2) / games
    win_rate: float | None
    low: float | None
    high: float | None


class HeadToHead(msgspec.Struct, frozen=True):
    filters: Filters
    games: int  # the games the rows come from (a row counts pairs of opposing seats: a team game's are several)
    rows: list[HeadToHeadRow]


def head_to_head(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters | None = None,
    player: str | None = None,
    opponent: str | None = None,
) -> HeadToHead:
    """Results between players, over each pair of opposing seats (a game of more seats: whoever placed ahead of the
    other won that pairing; teammates are not opponents)."""
    filters = filters or Filters()
    rows = _rows(
        conn,
        "stats_head_to_head",
        filters.core() | {"player": player, "opponent": opponent, "min_games": filters.min_games},
    )
    out = []
    for name, other, games, wins, losses, draws in rows:
        w = wilson(wins, games)
        out.append(HeadToHeadRow(name, other, games, wins, losses, draws, (wins + draws / 2) / games, w.rate,
                                 w.low, w.high))
    params = filters.core() | {"player": player, "opponent": opponent, "min_games": filters.min_games}
    return HeadToHead(filters, _rows(conn, "stats_head_to_head_games", params)[0][0], out)

