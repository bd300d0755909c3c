"""Player ratings: Elo over finished games, in a fixed order, so the same log always gives the same ratings.

- Everybody starts at 1500. After each game, with E = 1 / (1 + 10 ** ((R_opponent - R) / 400)) and S = 1 (win),
  0.5 (draw), 0 (loss): R += K * (S - E), K = 32 for both players (both updated from the ratings before the game).
- Order: by the time the game ended (``game_ended``'s recorded_at), then by game_id: deterministic, and the
  order in which results became known.
- A player is identified by the name they played under (``game_started.players[].name``).
- The filters (dates, tournament, variant, rules version) choose which games are rated; ``min_games`` only hides
  players with fewer rated games from the table (they still affect their opponents).
Ratings are computed from ``proj_games`` on request; a ``RatingsCache`` keeps the pass per filter and continues
it with the games that ended since (docs/statistics.md has the figures).
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

import duckdb
import msgspec

from replay.sql_loader import sql
from replay.stats import Filters

INITIAL = 1500.0
T = TypeVar("T")
K = 32.0


class Rating(msgspec.Struct, frozen=True):
    rank: int
    player: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    peak: float
    last_played: str  # ended_at of the player's last rated game


class Ratings(msgspec.Struct, frozen=True):
    filters: Filters
    games: int  # rated games
    system: str  # "elo", K and initial rating
    rows: list[Rating]


class RatingPoint(msgspec.Struct, frozen=True):
    game_id: str
    ended_at: str
    opponent: str
    result: str  # win | loss | draw
    before: float
    after: float
    opponent_before: float


class RatingHistory(msgspec.Struct, frozen=True):
    filters: Filters
    player: str
    rating: float | None
    rows: list[RatingPoint]


SCORE = {"p1": (1.0, 0.0), "p2": (0.0, 1.0), "draw": (0.5, 0.5)}


class EloPass:
    """One Elo pass over the rated games of one filter, in order; it can be continued with later games.

    Compact per-game arrays keep every game's ratings before and after, and per player the positions of their
    games, so a rating history needs no second pass."""

    def __init__(self) -> None:
        self.count = 0  # rated-game rows consumed
        self.last: tuple[str, str] = ("", "")  # (ended_at, game_id) of the last one
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.rating: list[float] = []
        self.record: list[list[int]] = []  # games, wins, losses, draws
        self.peak: list[float] = []
        self.last_played: list[str] = []
        self.positions: list[array[int]] = []  # per player: positions of their games
        self.a, self.b = array("i"), array("i")
        self.before_a, self.before_b = array("d"), array("d")
        self.after_a, self.after_b = array("d"), array("d")
        self.score_a = array("b")  # 2 win, 1 draw, 0 loss, for player a

    def _player(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.names)
            self.names.append(name)
            self.rating.append(INITIAL)
            self.record.append([0, 0, 0, 0])
            self.peak.append(INITIAL)
            self.last_played.append("")
            self.positions.append(array("i"))
        return i

    def feed(self, games: list[tuple]) -> None:
        """Rate (game_id, ended_at, player_p1, player_p2, winner) rows, which come after everything fed so far."""
        if not games:
            return
        # A hot loop (a million games per pass): everything is bound to locals and unrolled.
        rating, record, peak, last_played, positions = self.rating, self.record, self.peak, self.last_played, self.positions
        index, player = self.index, self._player
        a_append, b_append = self.a.append, self.b.append
        ba_append, bb_append = self.before_a.append, self.before_b.append
        aa_append, ab_append = self.after_a.append, self.after_b.append
        score_append = self.score_a.append
        position = len(self.a)
        k = K
        for _, ended_at, name_a, name_b, winner in games:
            if winner == "p1":
                sa = 1.0
            elif winner == "p2":
                sa = 0.0
            elif winner == "draw":
                sa = 0.5
            else:
                continue
            if name_a == name_b:
                continue
            a = index.get(name_a)
            if a is None:
                a = player(name_a)
            b = index.get(name_b)
            if b is None:
                b = player(name_b)
            before_a = rating[a]
            before_b = rating[b]
            delta = k * (sa - 1.0 / (1.0 + 10.0 ** ((before_b - before_a) / 400.0)))
            after_a = before_a + delta
            after_b = before_b - delta  # K (S_b - E_b) = K ((1 - S_a) - (1 - E_a)) = -delta
            rating[a] = after_a
            rating[b] = after_b
            a_append(a)
            b_append(b)
            ba_append(before_a)
            bb_append(before_b)
            aa_append(after_a)
            ab_append(after_b)
            ra, rb = record[a], record[b]
            ra[0] += 1
            rb[0] += 1
            if sa == 1.0:
                score_append(2)
                ra[1] += 1
                rb[2] += 1
            elif sa == 0.0:
                score_append(0)
                ra[2] += 1
                rb[1] += 1
            else:
                score_append(1)
                ra[3] += 1
                rb[3] += 1
            if after_a > peak[a]:
                peak[a] = after_a
            if after_b > peak[b]:
                peak[b] = after_b
            last_played[a] = ended_at
            last_played[b] = ended_at
            positions[a].append(position)
            positions[b].append(position)
            position += 1
        self.count += len(games)
        self.last = (games[-1][1], games[-1][0])

    def rated_games(self) -> int:
        return len(self.a)


class RatingsCache:
    """Elo passes by filter, continued with the games that ended since (exact: Elo is a fold in a fixed order, and
    the pass is redone from scratch whenever a game turns up before its end). One per process or app; callers of
    one filter take turns (the second waits for the first one's pass instead of computing its own)."""

    def __init__(self, size: int = 16) -> None:
        self._entries: OrderedDict[tuple, tuple[threading.Lock, list[EloPass | None]]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def apply(self, conn: duckdb.DuckDBPyConnection, filters: Filters, use: Callable[[EloPass], T]) -> T:
        """``use(pass)`` on the up-to-date pass of ``filters``, while no other caller changes it."""
        common = filters.common()
        key = tuple(sorted(common.items(), key=lambda kv: kv[0]))
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
                upto = conn.execute(
                    sql("stats_rating_count_upto"),
                    common | {"upto_ended_at": cached.last[0], "upto_game_id": cached.last[1]},
                ).fetchall()[0][0]
                if upto == cached.count:
                    cached.feed(
                        conn.execute(
                            sql("stats_rating_games_after"),
                            common | {"after_ended_at": cached.last[0], "after_game_id": cached.last[1]},
                        ).fetchall()
                    )
                else:
                    cached = None
            if cached is None:
                cached = slot[0] = full_pass(conn, filters)
            return use(cached)


def full_pass(conn: duckdb.DuckDBPyConnection, filters: Filters) -> EloPass:
    done = EloPass()
    done.feed(conn.execute(sql("stats_rating_games"), filters.common()).fetchall())
    return done


def _apply(conn: duckdb.DuckDBPyConnection, filters: Filters, cache: RatingsCache | None, use: Callable[[EloPass], T]) -> T:
    if cache is not None:
        return cache.apply(conn, filters, use)
    return use(full_pass(conn, filters))


def ratings(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters = Filters(),
    limit: int | None = None,
    cache: RatingsCache | None = None,
) -> Ratings:
    return _apply(conn, filters, cache, lambda done: _table(done, filters, limit))


def _table(done: EloPass, filters: Filters, limit: int | None) -> Ratings:
    ordered = sorted(
        (i for i in range(len(done.names)) if done.record[i][0] >= filters.min_games),
        key=lambda i: (-done.rating[i], done.names[i]),
    )
    if limit is not None:
        ordered = ordered[:limit]
    rows = [
        Rating(rank + 1, done.names[i], round(done.rating[i], 2), *done.record[i], round(done.peak[i], 2),
               done.last_played[i])
        for rank, i in enumerate(ordered)
    ]
    return Ratings(filters, done.rated_games(), f"elo K={K:g} initial={INITIAL:g}", rows)


def rating_history(
    conn: duckdb.DuckDBPyConnection, player: str, filters: Filters = Filters(), cache: RatingsCache | None = None
) -> RatingHistory:
    return _apply(conn, filters, cache, lambda done: _history(conn, done, player, filters))


def _history(conn: duckdb.DuckDBPyConnection, done: EloPass, player: str, filters: Filters) -> RatingHistory:
    i = done.index.get(player)
    if i is None:
        return RatingHistory(filters, player, None, [])
    games = conn.execute(sql("stats_rating_player_games"), filters.common() | {"player": player}).fetchall()
    positions = done.positions[i]
    if len(games) < len(positions):
        raise RuntimeError("rating history: the projections changed during the request; try again")
    points = []
    for (game_id, ended_at), position in zip(games, positions, strict=False):
        mine_a = done.a[position] == i
        other = done.b[position] if mine_a else done.a[position]
        before = done.before_a[position] if mine_a else done.before_b[position]
        after = done.after_a[position] if mine_a else done.after_b[position]
        score = done.score_a[position] if mine_a else 2 - done.score_a[position]
        points.append(
            RatingPoint(
                game_id, ended_at, done.names[other], ("loss", "draw", "win")[score], round(before, 2), round(after, 2),
                round(done.before_b[position] if mine_a else done.before_a[position], 2),
            )
        )
    return RatingHistory(filters, player, round(done.rating[i], 2), points)
