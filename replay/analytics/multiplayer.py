"""Ratings of games with more than two seats: openskill's Plackett-Luce model (Weng and Lin 2011), a Bayesian rating
for any number of seats and teams, from the ``openskill`` library. Two-seat games keep Elo (``ratings``).

- Everybody starts at mu = 25, sigma = 25/3 (openskill's defaults). Each rated game updates every seat's player
  from the finishing places (``proj_seats.place``; tied seats share a place); the seats of a team (``team``) are
  rated as one side. The table ranks players by the conservative ``ordinal`` = mu - 3 sigma.
- Which games: finished games of more than two seats with places, passing the filters; a game where one player
  sits in two seats is not rated. Order: as Elo's, by the time the game ended, then game_id, so the same games give
  the same ratings, always (the model is plain floating-point arithmetic in a fixed order).
- A ``MultiplayerCache`` keeps the pass per filter and continues it with the games that ended since (exact: the
  pass is a fold in a fixed order; it is redone when a game turns up before its end): the skeleton both rating
  models share, ``replay.analytics.passes``.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any

import msgspec
from openskill.models import PlackettLuce

from replay.analytics.passes import PassCache, RatingModel
from replay.analytics.stats import Filters

if TYPE_CHECKING:
    import duckdb

MODEL = "openskill plackett-luce mu=25 sigma=8.333"


class MultiplayerRating(msgspec.Struct, frozen=True):
    rank: int
    player: str
    ordinal: float  # mu - 3 sigma: what the table is sorted by
    mu: float
    sigma: float
    games: int
    wins: int  # games won (among the winners)
    last_played: str  # ended_at of the player's last rated game


class MultiplayerRatings(msgspec.Struct, frozen=True):
    filters: Filters
    games: int  # rated games
    system: str  # the rating model and its start
    rows: list[MultiplayerRating]


class OpenSkillPass:
    """One pass over the rated games of one filter, in order; continued with later games by ``feed``."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[str, Any] = {}  # player -> openskill rating (mu, sigma)
        self.record: dict[str, list[Any]] = {}  # player -> [games, wins, last_played]
        self.fed = 0  # seat rows fed (rated games or not): what the validity check counts
        self.rated = 0
        self.last: tuple[str, str] | None = None  # (ended_at, game_id) of the last game fed

    def feed(self, seats: list[tuple]) -> None:
        """Rate the games of a ``stats_multiplayer_seats`` result (game_id, ended_at, team, player, place, result),
        which come after everything fed so far."""
        for (game_id, ended_at), rows in groupby(seats, key=lambda row: (row[0], row[1])):
            game = list(rows)
            self.fed += len(game)
            self.last = (ended_at, game_id)
            players = [row[3] for row in game]
            if len(set(players)) != len(players):
                continue  # one player in two seats: not rated
            sides: dict[Any, list[tuple]] = {}
            for seat, row in enumerate(game):
                sides.setdefault(row[2] if row[2] is not None else ("seat", seat), []).append(row)
            teams = [[self._rating(row[3]) for row in side] for side in sides.values()]
            ranks = [min(row[4] for row in side) for side in sides.values()]
            rated = self.model.rate(teams, ranks=ranks)
            for side, new in zip(sides.values(), rated, strict=True):
                for row, rating in zip(side, new, strict=True):
                    self.ratings[row[3]] = rating
                    record = self.record.setdefault(row[3], [0, 0, ""])
                    record[0] += 1
                    record[1] += row[5] == "win"
                    record[2] = ended_at
            self.rated += 1

    def _rating(self, player: str) -> Any:
        rating = self.ratings.get(player)
        if rating is None:
            rating = self.ratings[player] = self.model.rating(name=player)
        return rating


OPENSKILL: RatingModel[OpenSkillPass] = RatingModel(
    OpenSkillPass, "stats_multiplayer_seats", "stats_multiplayer_count_upto"
)


class MultiplayerCache(PassCache[OpenSkillPass]):
    """openskill passes by filter, continued with the games that ended since (``passes.PassCache``, as Elo's)."""

    def __init__(self, size: int = 16) -> None:
        super().__init__(OPENSKILL, size)


def multiplayer_ratings(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters | None = None,
    limit: int | None = None,
    cache: MultiplayerCache | None = None,
) -> MultiplayerRatings:
    """The openskill table of the players of games with more than two seats (``min_games``: players with fewer rated
    games are left out of the table; they still count for the others)."""
    filters = filters or Filters()
    return OPENSKILL.apply(conn, filters, cache, lambda done: _table(done, filters, limit))


def _table(done: OpenSkillPass, filters: Filters, limit: int | None) -> MultiplayerRatings:
    players = [p for p, record in done.record.items() if record[0] >= filters.min_games]
    ordered = sorted(players, key=lambda p: (-done.ratings[p].ordinal(), p))
    if limit is not None:
        ordered = ordered[:limit]
    rows = []
    for rank, player in enumerate(ordered, start=1):
        rating, (games, wins, last_played) = done.ratings[player], done.record[player]
        rows.append(MultiplayerRating(rank, player, round(rating.ordinal(), 2), round(rating.mu, 3),
                                      round(rating.sigma, 3), games, wins, last_played))
    return MultiplayerRatings(filters, done.rated, MODEL, rows)
