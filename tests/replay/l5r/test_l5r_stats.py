"""L5R's own statistics against a recount from the events of the same games (bot games through the service into
DuckDB, projected as ``warlog serve`` projects them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.l5r import SYSTEM
from events.l5r import ArmyAssigned, AttackDeclared, BattleResolved, DuelResolved, GameStarted, HonorChanged
from replay.analytics.projections import attach
from replay.analytics.stats import Filters
from replay.l5r import analytics
from replay.log.demo import record_demo_games
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

GAMES = 8
FILTERS = Filters(system="l5r")


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Any, list[list[Any]]]]:
    store = DuckDBEventStore(":memory:")
    projector = attach(store, background=False)
    service = GameService(store)
    ids = [g.game_id for g in record_demo_games(service, GAMES, seed=41, system="l5r")]
    projector.catch_up()
    reader = store.reader()
    try:
        yield reader, [[r.event for r in service.events(i)] for i in ids]
    finally:
        reader.close()
        projector.close()
        store.close()


def _duels(games: list[list[Any]]) -> list[DuelResolved]:
    return [e for events in games for e in events if isinstance(e, DuelResolved)]


def _outcome(duel: DuelResolved) -> str:
    return "tie" if duel.winner is None else "challenger" if duel.winner == duel.challenger else "challenged"


def test_l5r_duels_by_difference_and_by_focuses_are_the_recount_of_the_duels(world) -> None:
    reader, games = world
    duels = _duels(games)
    assert duels, "the bots fought no duel"
    by_difference: Counter[tuple[int, str]] = Counter()
    by_focuses: Counter[tuple[int, str]] = Counter()
    for duel in duels:
        by_difference[(max(-3, min(3, duel.base[0] - duel.base[1])), _outcome(duel))] += 1
        by_focuses[(len(duel.revealed), _outcome(duel))] += 1
    for statistic, counted in ((analytics._duels(reader, FILTERS, "stats_l5r_duels_by_difference"), by_difference),
                               (analytics._duels(reader, FILTERS, "stats_l5r_duels_by_focuses"), by_focuses)):
        got = {(r.key, o): n for r in statistic.rows for o, n in
               (("challenger", r.challenger_wins), ("tie", r.ties), ("challenged", r.challenged_wins)) if n}
        assert got == dict(counted)
    overall = analytics._duels(reader, FILTERS, "stats_l5r_challenger").rows[0]
    assert overall.key is None and overall.duels == len(duels)


def test_l5r_battles_is_the_recount_of_the_battles_where_an_army_stood(world) -> None:
    reader, games = world
    counted: Counter[tuple[int, str]] = Counter()
    fell = 0
    for events in games:
        fought: set[int] = set()
        for e in events:
            if isinstance(e, AttackDeclared):
                fought = set()
            elif isinstance(e, ArmyAssigned):
                fought.add(e.battlefield)
            elif isinstance(e, BattleResolved) and e.battlefield in fought:
                counted[(max(-10, min(10, e.attacker_force - e.defender_force)), e.winner or "none")] += 1
                fell += e.province_destroyed
    rows = analytics.battles(reader, FILTERS).rows
    got = {(r.difference, w): n for r in rows for w, n in (("attacker", r.attacker_wins), ("defender", r.defender_wins),
                                                           ("tie", r.ties), ("none", r.nothing)) if n}
    assert got == dict(counted) and sum(r.provinces_destroyed for r in rows) == fell


def test_l5r_victories_and_honor_curves_are_the_recount_of_the_games(world) -> None:
    reader, games = world
    wins: Counter[tuple[str, str]] = Counter()
    start: dict[str, list[int]] = {}
    for events in games:
        started = events[0]
        assert isinstance(started, GameStarted)
        state = SYSTEM.fold(events)
        clan = {d.player: d.clan for d in started.decks}
        wins[(clan[state.winner or ""], state.end_reason or "")] += 1
        for d in started.decks:
            start.setdefault(d.clan, []).append(d.honor)
        assert [e.total for e in events if isinstance(e, HonorChanged)][-1:] == [
            e.total for e in events if isinstance(e, HonorChanged)][-1:]
    got = analytics.victories(reader, FILTERS)
    assert {(r.clan, r.end_reason): r.wins for r in got.rows} == dict(wins)
    curves = analytics.honor_curves(reader, FILTERS).rows
    for clan, honors in start.items():
        turn0 = next(p for p in curves if p.clan == clan and p.turn == 0)
        assert turn0.seats == len(honors) and turn0.mean_honor == pytest.approx(sum(honors) / len(honors))
