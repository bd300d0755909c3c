"""Elo over a log whose finished games are not rated (games against oneself): no crash, empty tables, and the
stored and cached passes continue correctly once rated games arrive (issue 11 item 1)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

from replay.analytics import projections, ratings  # noqa: E402
from replay.analytics.stats import Filters  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402

SELF = [fx.started(("ann", "orcs"), ("ann", "dwarves")), *fx.GAME_A[1:]]  # A's moves, ann on both seats


def test_ratings_pass_of_unrated_games_only_then_rated_games_continue_it() -> None:
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    fx.load(store, clock, {"S": (SELF, datetime(2026, 1, 2, tzinfo=UTC), None)})
    projector = projections.attach(store, background=False)  # its catch-up syncs the stored pass: raised before
    cache = ratings.RatingsCache()
    reader = store.reader()
    try:
        assert ratings.ratings(reader).rows == []
        assert ratings.ratings(reader, Filters(variant="standard"), cache=cache).rows == []
        assert ratings.rating_history(reader, "ann").rows == []
        fx.load(store, clock, {k: fx.GAMES[k] for k in ("A", "B")})  # rated games after the unrated one
        projector.catch_up()
        reader.close()
        reader = store.reader()
        stored = ratings.ratings(reader)
        cached = ratings.ratings(reader, Filters(variant="standard"), cache=cache)
        # as in test_rating_history
        assert [(r.player, r.rating, r.games) for r in stored.rows] == [("bob", 1501.47, 2), ("ann", 1498.53, 2)]
        assert [(r.player, r.rating) for r in cached.rows] == [(r.player, r.rating) for r in stored.rows]
    finally:
        reader.close()
        projector.close()
        store.close()
