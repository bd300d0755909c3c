"""Art of War's own statistics against a recount from the events of the same games (bot games through the service
into DuckDB, projected as ``warlog serve`` projects them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.art_of_war import SYSTEM
from engine.art_of_war.catalog import card_of, kind_of
from events.art_of_war import Damaged
from replay.analytics.projections import attach
from replay.analytics.stats import Filters
from replay.art_of_war import analytics
from replay.log.demo import record_demo_games
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

GAMES = 10
FILTERS = Filters(system="art-of-war")


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Any, list[list[Any]]]]:
    store = DuckDBEventStore(":memory:")
    projector = attach(store, background=False)
    service = GameService(store)
    ids = [g.game_id for g in record_demo_games(service, GAMES, seed=23, system="art-of-war")]
    projector.catch_up()
    reader = store.reader()
    try:
        yield reader, [[r.event for r in service.events(i)] for i in ids]
    finally:
        reader.close()
        projector.close()
        store.close()


def test_aow_victories_and_first_player_are_the_recount_of_the_games(world) -> None:
    reader, games = world
    reasons: Counter[str] = Counter()
    first_wins = 0
    for events in games:
        state = SYSTEM.fold(events)
        reasons[state.end_reason or ""] += 1
        first_wins += state.winner == events[0].first
    got = analytics.victories(reader, FILTERS)
    assert {r.end_reason: r.games for r in got.rows} == dict(reasons) and got.games == GAMES
    first = analytics.first_player(reader, FILTERS)
    assert (first.games, first.wins) == (GAMES, first_wins)


def test_aow_removals_and_kingdoms_are_the_recount_of_the_games(world) -> None:
    reader, games = world
    counted: Counter[tuple[str, str]] = Counter()
    winners: list[int] = []
    for events in games:
        for e in events:
            if isinstance(e, Damaged) and e.result != "damaged":
                counted[("king" if card_of(e.unit).king else kind_of(e.unit), e.result)] += 1
        state = SYSTEM.fold(events)
        if state.winner:
            winners.append(sum(1 for c in state.player(state.winner).kingdom if kind_of(c) == "soldier"))
    rows = analytics.removals(reader, FILTERS).rows
    got = {(r.unit_type, k): n for r in rows for k, n in (("captured", r.captured), ("destroyed", r.destroyed)) if n}
    assert got == dict(counted)
    mix = {r.result: r for r in analytics.kingdoms(reader, FILTERS).rows}
    if winners:
        assert mix["win"].seats == len(winners) and mix["win"].soldiers == pytest.approx(sum(winners) / len(winners))
