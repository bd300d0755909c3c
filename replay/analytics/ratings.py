"""Player ratings: Elo over finished two-seat games, in a fixed order, so the same log always gives the same ratings
(games of more seats: ``replay.analytics.multiplayer``, openskill).

- Everybody starts at 1500. After each game, with E = 1 / (1 + 10 ** ((R_opponent - R) / 400)) and S = 1 (win),
  0.5 (draw), 0 (loss): R += K * (S - E), K = 32 for both players (both updated from the ratings before the game).
- Order: by the time the game ended (``game_ended``'s recorded_at), then by game_id: deterministic, and the
  order in which results became known.
- A player is identified by the name they played under (``game_started.players[].name``).
- The filters (dates, tournament, variant, rules version) choose which games are rated; ``min_games`` only hides
  players with fewer rated games from the table (they still affect their opponents).
Ratings are computed from ``proj_games`` on request; a ``RatingsCache`` keeps the pass per filter and continues
it with the games that ended since (the skeleton both rating models share: ``replay.analytics.passes``;
docs/statistics.md has the figures).
"""

from __future__ import annotations

from array import array
from operator import itemgetter

import duckdb
import msgspec

from replay.analytics.passes import PassCache, RatingModel
from replay.analytics.stats import Filters
from replay.store.sql import sql

INITIAL = 1500.0
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


# A rated game as stats_rating_pass sends it: (a << 34) | (score_a << 32) | b, with a, b the players' numbers.
_NUMBER = (1 << 32) - 1
_SCORE = 3 << 32


class EloPass:
    """One Elo pass over the rated games of one filter, in order; it can be continued with later games.

    Compact per-game arrays keep every rated game (its players and score as one integer) and the change of the first
    player's rating. The ratings before each game (for histories and the stored pass) are replayed from the change
    when first asked for, from a copy of the ratings at the start of each fed batch: the same float additions, so the
    same values, and the loop that everybody waits for on a first call does a third less. A player's positions are
    indexed when first asked for too."""

    def __init__(self, keep_ids: bool = False) -> None:
        self.keep_ids = keep_ids  # also keep each rated game's id and end (for the stored history)
        self.game_ids: list[str] = []
        self.ended: list[str] = []
        self.fed = 0  # games fed (rated or not)
        self.last: tuple[str, str] = ("", "")  # (ended_at, game_id) of the last one
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.rating: list[float] = []
        self.record: list[list[int]] = []  # games, wins, losses, draws
        self.peak: list[float] = []
        self.last_played: list[str] = []
        self.games = array("q")  # per rated game: (a << 34) | (score_a << 32) | b; score_a 2 win, 1 draw, 0 loss
        self.delta = array("d")  # a's change; after_a = before_a + delta, after_b = before_b - delta
        self._before_a, self._before_b = array("d"), array("d")  # up to the first pending batch
        self._pending: list[tuple[int, list[float]]] = []  # (first position, ratings then) of batches not replayed
        self._positions: list[array[int]] = []  # per player: positions of their games, up to _indexed
        self._indexed = 0

    def _player(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.names)
            self.names.append(name)
            self.rating.append(INITIAL)
            self.record.append([0, 0, 0, 0])
            self.peak.append(INITIAL)
            self.last_played.append("")
        return i

    def feed(self, rows: list[tuple]) -> None:
        """Rate the games of a ``stats_rating_pass`` result, which come after everything fed so far."""
        head = _head(rows)
        if not head["fed"]:
            return
        self.fed += head["fed"]
        self.last = (head["last_ended_at"], head["last_game_id"])
        number = [self._player(name) for name in head["players"]]  # the result's player numbers -> this pass's
        record, last_played = self.record, self.last_played
        for i, games, wins, losses, draws, last in zip(
            number, head["games"], head["wins"], head["losses"], head["draws"], head["last_played"], strict=True
        ):
            r = record[i]
            r[0], r[1], r[2], r[3] = r[0] + games, r[1] + wins, r[2] + losses, r[3] + draws
            last_played[i] = last
        rated = list(map(itemgetter(0), rows[1:]))
        if number != list(range(len(number))):  # a continued pass: renumber
            rated = [(number[g >> 34] << 34) | (g & _SCORE) | number[g & _NUMBER] for g in rated]
        self._rate(rated)
        if self.keep_ids:
            self.game_ids.extend(map(itemgetter(1), rows[1:]))
            self.ended.extend(map(itemgetter(2), rows[1:]))

    def _rate(self, rated: list[int]) -> None:
        # The hot loop (half a million games for a year at 1M games): locals only, nothing but the fold.
        if len(self._pending) >= 4:  # bounded: at most a few copies of the ratings
            self.befores()
        rating, peak = self.rating, self.peak
        self._pending.append((len(self.games), list(rating)))
        delta = array("d")
        put_delta = delta.append
        k = K
        for game in rated:
            a = game >> 34
            b = game & 4294967295  # _NUMBER (a constant is faster than a global)
            ra = rating[a]
            rb = rating[b]
            change = k * (((game >> 32) & 3) * 0.5 - 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0)))
            put_delta(change)
            ra += change
            rb -= change  # K (S_b - E_b) = K ((1 - S_a) - (1 - E_a)) = -change
            rating[a] = ra
            rating[b] = rb
            if ra > peak[a]:
                peak[a] = ra
            if rb > peak[b]:
                peak[b] = rb
        self.games.extend(array("q", rated))
        self.delta.extend(delta)

    def befores(self) -> tuple[array[float], array[float]]:
        """Each rated game's ratings before it (of a, of b), replayed where not yet done."""
        games, delta, before_a, before_b = self.games, self.delta, self._before_a, self._before_b
        put_a, put_b = before_a.append, before_b.append
        ends = [start for start, _ in self._pending[1:]] + [len(games)]
        for (start, rating), end in zip(self._pending, ends, strict=True):
            for position in range(start, end):
                game, change = games[position], delta[position]
                a, b = game >> 34, game & _NUMBER
                ra, rb = rating[a], rating[b]
                put_a(ra)
                put_b(rb)
                rating[a] = ra + change
                rating[b] = rb - change
        self._pending.clear()
        return before_a, before_b

    def seed(self, name: str, rating: float, games: int, wins: int, losses: int, draws: int, peak: float,
             last_played: str) -> None:
        """Start a player from a stored state (continuing the stored pass)."""
        i = self._player(name)
        self.rating[i], self.record[i] = rating, [games, wins, losses, draws]
        self.peak[i], self.last_played[i] = peak, last_played

    def rated_games(self) -> int:
        return len(self.games)

    def point(self, position: int) -> tuple[int, int, int, float, float, float, float]:
        """The rated game at ``position``: a, b, score_a (2 win, 1 draw, 0 loss), before_a, before_b, after_a,
        after_b."""
        before_a, before_b = self.befores() if self._pending else (self._before_a, self._before_b)
        game, ba, bb, change = self.games[position], before_a[position], before_b[position], self.delta[position]
        return game >> 34, game & _NUMBER, (game >> 32) & 3, ba, bb, ba + change, bb - change

    def positions(self, player: int) -> array[int]:
        """Positions of the player's rated games, in order (indexed on first use, then kept up)."""
        positions, games = self._positions, self.games
        while len(positions) < len(self.names):
            positions.append(array("i"))
        for position in range(self._indexed, len(games)):
            game = games[position]
            positions[game >> 34].append(position)
            positions[game & _NUMBER].append(position)
        self._indexed = len(games)
        return positions[player]


_PER_PLAYER = ("players", "games", "wins", "losses", "draws", "last_played")


def _head(rows: list[tuple]) -> dict:
    """The pass row of a ``stats_rating_pass`` result. Its per-player lists are NULL when no game was rated (games
    were fed, but every one was against oneself or had no result: a database holding one imported mirror game of
    ``warlog demo``, whose two bots share a name); they are read as empty lists."""
    head = msgspec.json.decode(rows[0][3])
    for key in _PER_PLAYER:
        if head.get(key) is None:
            head[key] = []
    return head


ELO: RatingModel[EloPass] = RatingModel(EloPass, "stats_rating_pass", "stats_rating_count_upto", {"with_ids": False})


class RatingsCache(PassCache[EloPass]):
    """Elo passes by filter, continued with the games that ended since (``passes.PassCache``: exact, as Elo is a fold
    in a fixed order; the pass is redone from scratch whenever a game turns up before its end)."""

    def __init__(self, size: int = 16) -> None:
        super().__init__(ELO, size)


# -- the stored overall pass (proj_elo_*, migration 006) ----------------------------------------------------


def sync_elo(conn: duckdb.DuckDBPyConnection, system: str) -> None:
    """Bring the stored overall pass of ``system`` up to date with proj_games: continue it with the games that
    ended after its cursor, or redo it when a game turns up before (checked by counting). Idempotent; the caller
    runs it in a transaction."""
    overall = Filters(system=system)
    cursor = conn.execute(sql("proj_elo_cursor"), {"system": system}).fetchall()
    if cursor:
        last_ended_at, last_game_id, fed, rated = cursor[0]
        upto, total = ELO.counts(conn, overall, (last_ended_at, last_game_id))
        if upto == fed:
            if total == upto:
                return
            newer = ELO.rows(conn, overall, (last_ended_at, last_game_id), with_ids=True)
            head = _head(newer)
            if not head["fed"]:
                return
            done = EloPass(keep_ids=True)
            names = head["players"]
            for row in conn.execute(sql("proj_elo_players_of"), {"system": system, "players": names}).fetchall():
                done.seed(*row)
            done.feed(newer)
            _store_pass(conn, system, done, fed, rated)
            return
    for table in ("cursor", "players", "history"):
        conn.execute(sql(f"proj_elo_clear_{table}"), {"system": system})
    done = EloPass(keep_ids=True)
    done.feed(ELO.rows(conn, overall, None, with_ids=True))
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
    n = done.rated_games()
    if n:
        names, games = done.names, done.games
        before_a, before_b = done.befores()
        conn.execute(
            sql("proj_elo_insert_history"),
            {
                "system": system, "position": list(range(rated, rated + n)), "game_id": done.game_ids,
                "ended_at": done.ended, "player_a": [names[g >> 34] for g in games],
                "player_b": [names[g & _NUMBER] for g in games], "score_a": [(g >> 32) & 3 for g in games],
                "before_a": list(before_a), "before_b": list(before_b),
                "after_a": [x + d for x, d in zip(before_a, done.delta, strict=True)],
                "after_b": [x - d for x, d in zip(before_b, done.delta, strict=True)],
            },
        )
    last_ended_at, last_game_id = done.last
    conn.execute(
        sql("proj_elo_set_cursor"),
        {"system": system, "last_ended_at": last_ended_at, "last_game_id": last_game_id,
         "fed_rows": fed + done.fed, "rated_games": rated + n},
    )


def _is_overall(filters: Filters) -> bool:
    return (all(v is None for k, v in filters.common().items() if k != "system") and filters.ending in (None, "rules")
            and filters.catalogue is None)


def _stored_cursor(conn: duckdb.DuckDBPyConnection, filters: Filters) -> tuple | None:
    if not _is_overall(filters):
        return None
    rows = conn.execute(sql("proj_elo_cursor"), {"system": filters.system}).fetchall()
    return rows[0] if rows else None


def ratings(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters | None = None,
    limit: int | None = None,
    cache: RatingsCache | None = None,
) -> Ratings:
    filters = filters or Filters()
    cursor = _stored_cursor(conn, filters)
    if cursor is not None:  # the overall leaderboard: read the stored pass
        rows = conn.execute(
            sql("stats_elo_table"), {"system": filters.system, "min_games": filters.min_games, "limit": limit}
        ).fetchall()
        return Ratings(
            filters,
            cursor[3],
            f"elo K={K:g} initial={INITIAL:g}",
            [
                Rating(i + 1, p, round(r, 2), g, w, lo, d, round(pk, 2), lp)
                for i, (p, r, g, w, lo, d, pk, lp) in enumerate(rows)
            ],
        )
    return ELO.apply(conn, filters, cache, lambda done: _table(done, filters, limit))


def _table(done: EloPass, filters: Filters, limit: int | None) -> Ratings:
    ordered = sorted(
        (i for i in range(len(done.names)) if done.record[i][0] >= filters.min_games),
        key=lambda i: (-done.rating[i], done.names[i]),
    )
    if limit is not None:
        ordered = ordered[:limit]
    rows = []
    for rank, i in enumerate(ordered):
        games, wins, losses, draws = done.record[i]
        rows.append(Rating(rank + 1, done.names[i], round(done.rating[i], 2), games, wins, losses, draws,
                           round(done.peak[i], 2), done.last_played[i]))
    return Ratings(filters, done.rated_games(), f"elo K={K:g} initial={INITIAL:g}", rows)


def rating_history(
    conn: duckdb.DuckDBPyConnection, player: str, filters: Filters | None = None, cache: RatingsCache | None = None
) -> RatingHistory:
    filters = filters or Filters()
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
    return ELO.apply(conn, filters, cache, lambda done: _history(conn, done, player, filters))


def _history(conn: duckdb.DuckDBPyConnection, done: EloPass, player: str, filters: Filters) -> RatingHistory:
    i = done.index.get(player)
    if i is None:
        return RatingHistory(filters, player, None, [])
    games = conn.execute(sql("stats_rating_player_games"), filters.core() | {"player": player}).fetchall()
    positions = done.positions(i)
    if len(games) < len(positions):
        raise RuntimeError("rating history: the projections changed during the request; try again")
    points = []
    for (game_id, ended_at), position in zip(games, positions, strict=False):
        a, b, score_a, before_a, before_b, after_a, after_b = done.point(position)
        mine_a = a == i
        points.append(
            RatingPoint(
                game_id, ended_at, done.names[b if mine_a else a],
                ("loss", "draw", "win")[score_a if mine_a else 2 - score_a],
                round(before_a if mine_a else before_b, 2), round(after_a if mine_a else after_b, 2),
                round(before_b if mine_a else before_a, 2),
            )
        )
    return RatingHistory(filters, player, round(done.rating[i], 2), points)
