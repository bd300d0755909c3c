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

    def __init__(self, keep_ids: bool = False) -> None:
        self.keep_ids = keep_ids  # also keep each rated game's id and end (for the stored history)
        self.game_ids: list[str] = []
        self.ended: list[str] = []
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
        keep, id_append, ended_append = self.keep_ids, self.game_ids.append, self.ended.append
        position = len(self.a)
        k = K
        for game_id, ended_at, name_a, name_b, winner in games:
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
            if keep:
                id_append(game_id)
                ended_append(ended_at)
        self.count += len(games)
        self.last = (games[-1][1], games[-1][0])

    def seed(self, name: str, rating: float, games: int, wins: int, losses: int, draws: int, peak: float,
             last_played: str) -> None:
        """Start a player from a stored state (continuing the stored pass)."""
        i = self._player(name)
        self.rating[i], self.record[i], self.peak[i], self.last_played[i] = rating, [games, wins, losses, draws], peak, last_played

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


# -- the stored overall pass (proj_elo_*, migration 006) ----------------------------------------------------


def sync_elo(conn: duckdb.DuckDBPyConnection, system: str) -> None:
    """Bring the stored overall pass of ``system`` up to date with proj_games: continue it with the games that
    ended after its cursor, or redo it when a game turns up before (checked by counting). Idempotent; the caller
    runs it in a transaction."""
    overall = Filters(system=system)
    common = overall.common()
    cursor = conn.execute(sql("proj_elo_cursor"), {"system": system}).fetchall()
    if cursor:
        last_ended_at, last_game_id, fed, rated = cursor[0]
        upto = conn.execute(
            sql("stats_rating_count_upto"), common | {"upto_ended_at": last_ended_at, "upto_game_id": last_game_id}
        ).fetchall()[0][0]
        if upto == fed:
            newer = conn.execute(
                sql("stats_rating_games_after"),
                common | {"after_ended_at": last_ended_at, "after_game_id": last_game_id},
            ).fetchall()
            if not newer:
                return
            done = EloPass(keep_ids=True)
            names = sorted({g[2] for g in newer} | {g[3] for g in newer})
            for row in conn.execute(sql("proj_elo_players_of"), {"system": system, "players": names}).fetchall():
                done.seed(*row)
            done.feed(newer)
            _store_pass(conn, system, done, fed, rated)
            return
    for table in ("cursor", "players", "history"):
        conn.execute(sql(f"proj_elo_clear_{table}"), {"system": system})
    done = EloPass(keep_ids=True)
    done.feed(conn.execute(sql("stats_rating_games"), common).fetchall())
    _store_pass(conn, system, done, 0, 0)


def _store_pass(conn: duckdb.DuckDBPyConnection, system: str, done: EloPass, fed: int, rated: int) -> None:
    if done.names:
        conn.execute(
            sql("proj_elo_upsert_players"),
            {
                "system": system, "player": done.names, "rating": done.rating,
                "games": [r[0] for r in done.record], "wins": [r[1] for r in done.record],
                "losses": [r[2] for r in done.record], "draws": [r[3] for r in done.record],
                "peak": done.peak, "last_played": done.last_played,
            },
        )
    n = len(done.a)
    if n:
        names = done.names
        conn.execute(
            sql("proj_elo_insert_history"),
            {
                "system": system, "position": list(range(rated, rated + n)), "game_id": done.game_ids,
                "ended_at": done.ended, "player_a": [names[i] for i in done.a], "player_b": [names[i] for i in done.b],
                "score_a": list(done.score_a), "before_a": list(done.before_a), "before_b": list(done.before_b),
                "after_a": list(done.after_a), "after_b": list(done.after_b),
            },
        )
    last_ended_at, last_game_id = done.last
    conn.execute(
        sql("proj_elo_set_cursor"),
        {"system": system, "last_ended_at": last_ended_at, "last_game_id": last_game_id,
         "fed_rows": fed + done.count, "rated_games": rated + n},
    )


def _is_overall(filters: Filters) -> bool:
    return all(v is None for k, v in filters.common().items() if k != "system")


def _stored_cursor(conn: duckdb.DuckDBPyConnection, filters: Filters) -> tuple | None:
    if not _is_overall(filters):
        return None
    rows = conn.execute(sql("proj_elo_cursor"), {"system": filters.system}).fetchall()
    return rows[0] if rows else None


def ratings(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters = Filters(),
    limit: int | None = None,
    cache: RatingsCache | None = None,
) -> Ratings:
    cursor = _stored_cursor(conn, filters)
    if cursor is not None:  # the overall leaderboard: read the stored pass
        rows = conn.execute(
            sql("stats_elo_table"), {"system": filters.system, "min_games": filters.min_games, "limit": limit}
        ).fetchall()
        return Ratings(
            filters,
            cursor[3],
            f"elo K={K:g} initial={INITIAL:g}",
            [Rating(i + 1, p, round(r, 2), g, w, lo, d, round(pk, 2), lp) for i, (p, r, g, w, lo, d, pk, lp) in enumerate(rows)],
        )
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
    if _stored_cursor(conn, filters) is not None:
        rows = conn.execute(sql("stats_elo_history"), {"system": filters.system, "player": player}).fetchall()
        if not rows:
            return RatingHistory(filters, player, None, [])
        points = []
        for game_id, ended_at, a, b, score_a, before_a, before_b, after_a, after_b in rows:
            mine = a == player
            score = score_a if mine else 2 - score_a
            points.append(
                RatingPoint(
                    game_id, ended_at, b if mine else a, ("loss", "draw", "win")[score],
                    round(before_a if mine else before_b, 2), round(after_a if mine else after_b, 2),
                    round(before_b if mine else before_a, 2),
                )
            )
        return RatingHistory(filters, player, points[-1].after, points)
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
