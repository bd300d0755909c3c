"""Player ratings: Elo over finished games, in a fixed order, so the same log always gives the same ratings.

- Everybody starts at 1500. After each game, with E = 1 / (1 + 10 ** ((R_opponent - R) / 400)) and S = 1 (win),
  0.5 (draw), 0 (loss): R += K * (S - E), K = 32 for both players (both updated from the ratings before the game).
- Order: by the time the game ended (``game_ended``'s recorded_at), then by game_id: deterministic, and the
  order in which results became known.
- A player is identified by the name they played under (``game_started.players[].name``).
- The filters (dates, tournament, variant, rules version) choose which games are rated; ``min_games`` only hides
  players with fewer rated games from the table (they still affect their opponents).
Ratings are recomputed from ``proj_games`` on request (about a second per million games, docs/statistics.md).
"""

from __future__ import annotations

import msgspec
import duckdb

from replay.sql_loader import sql
from replay.stats import Filters

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


SCORE = {"p1": (1.0, 0.0), "p2": (0.0, 1.0), "draw": (0.5, 0.5)}


def _games(conn: duckdb.DuckDBPyConnection, filters: Filters) -> list[tuple]:
    return conn.execute(sql("stats_rating_games"), filters.common()).fetchall()


def elo(games: list[tuple], track: str | None = None) -> tuple[dict[str, list], list[RatingPoint]]:
    """Run Elo over (game_id, ended_at, player_p1, player_p2, winner) rows in order.

    Returns per player [rating, games, wins, losses, draws, peak, last_played] and ``track``'s history."""
    table: dict[str, list] = {}
    history: list[RatingPoint] = []
    for game_id, ended_at, a, b, winner in games:
        scores = SCORE.get(winner)
        if scores is None or a == b:
            continue
        ra = table.get(a)
        if ra is None:
            ra = table[a] = [INITIAL, 0, 0, 0, 0, INITIAL, ""]
        rb = table.get(b)
        if rb is None:
            rb = table[b] = [INITIAL, 0, 0, 0, 0, INITIAL, ""]
        before_a, before_b = ra[0], rb[0]
        expected_a = 1.0 / (1.0 + 10.0 ** ((before_b - before_a) / 400.0))
        sa, sb = scores
        ra[0] = before_a + K * (sa - expected_a)
        rb[0] = before_b + K * (sb - (1.0 - expected_a))
        for row, s in ((ra, sa), (rb, sb)):
            row[1] += 1
            row[2 if s == 1.0 else 3 if s == 0.0 else 4] += 1
            if row[0] > row[5]:
                row[5] = row[0]
            row[6] = ended_at
        if track is not None and track in (a, b):
            mine_a = track == a
            s = sa if mine_a else sb
            history.append(
                RatingPoint(
                    game_id,
                    ended_at,
                    b if mine_a else a,
                    "win" if s == 1.0 else "loss" if s == 0.0 else "draw",
                    round(before_a if mine_a else before_b, 2),
                    round(ra[0] if mine_a else rb[0], 2),
                    round(before_b if mine_a else before_a, 2),
                )
            )
    return table, history


def ratings(conn: duckdb.DuckDBPyConnection, filters: Filters = Filters(), limit: int | None = None) -> Ratings:
    games = _games(conn, filters)
    table, _ = elo(games)
    ordered = sorted(
        ((name, row) for name, row in table.items() if row[1] >= filters.min_games),
        key=lambda item: (-item[1][0], item[0]),
    )
    if limit is not None:
        ordered = ordered[:limit]
    rows = [
        Rating(i + 1, name, round(r[0], 2), r[1], r[2], r[3], r[4], round(r[5], 2), r[6])
        for i, (name, r) in enumerate(ordered)
    ]
    return Ratings(filters, sum(1 for g in games if g[4] in SCORE and g[2] != g[3]), f"elo K={K:g} initial={INITIAL:g}", rows)


def rating_history(conn: duckdb.DuckDBPyConnection, player: str, filters: Filters = Filters()) -> RatingHistory:
    table, history = elo(_games(conn, filters), track=player)
    row = table.get(player)
    return RatingHistory(filters, player, round(row[0], 2) if row else None, history)
