"""Light Wars' own statistics against a recount from the events of the same games (bot games through the service
into DuckDB, projected as ``warlog serve`` projects them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.light_wars import SYSTEM
from events.light_wars import AttackDeclared, AttackResolved, FirstPlayerChosen, GameStarted
from replay.analytics import stats
from replay.analytics.projections import attach
from replay.analytics.stats import Filters
from replay.light_wars import analytics
from replay.log.demo import record_demo_games
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

GAMES = 10
FILTERS = Filters(system="light-wars")


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Any, list[list[Any]]]]:
    store = DuckDBEventStore(":memory:")
    projector = attach(store, background=False)
    service = GameService(store)
    ids = [g.game_id for g in record_demo_games(service, GAMES, seed=31, system="light-wars")]
    projector.catch_up()
    reader = store.reader()
    try:
        yield reader, [[r.event for r in service.events(i)] for i in ids]
    finally:
        reader.close()
        projector.close()
        store.close()


def _results(events: list[Any]) -> dict[str, str]:
    outcome = SYSTEM.outcome(SYSTEM.fold(events))
    assert outcome is not None
    if outcome.is_draw:
        return {seat: "draw" for seat in outcome.seats}
    return {seat: "win" if seat in outcome.winners else "loss" for seat in outcome.seats}


def test_lw_armies_is_the_recount_of_results_by_composition_and_cost(world) -> None:
    reader, games = world
    counted: Counter[tuple[str, int, str]] = Counter()
    for events in games:
        started = events[0]
        assert isinstance(started, GameStarted)
        results = _results(events)
        for army in started.armies:
            counted[(analytics.composition(army), army.cost, results[army.player])] += 1
    got = analytics.armies(reader, FILTERS)
    assert got.games == GAMES
    assert {(r.composition, r.cost): (r.seats, r.wins, r.draws, r.losses) for r in got.rows} == {
        (c, cost): (sum(n for (c2, k2, _), n in counted.items() if (c2, k2) == (c, cost)),
                    counted[(c, cost, "win")], counted[(c, cost, "draw")], counted[(c, cost, "loss")])
        for c, cost, _ in counted}
    assert sum(r.seats for r in got.rows) == 2 * GAMES


def test_lw_flanks_is_the_recount_of_attacks_by_their_best_side(world) -> None:
    reader, games = world
    counted: dict[str, list[int]] = {}
    for events in games:
        declared: dict[int, AttackDeclared] = {}
        for event in events:
            if isinstance(event, AttackDeclared):
                declared[event.attack] = event
            elif isinstance(event, AttackResolved):
                sides = {p.side for p in declared[event.attack].participants}
                side = "rear" if "rear" in sides else "side" if "side" in sides else "front"
                row = counted.setdefault(side, [0, 0, 0])
                row[0] += 1
                row[1] += event.winner == "attack"
                row[2] += event.attack_total - event.defence_total
    got = analytics.flanks(reader, FILTERS)
    assert sum(n for n, _, _ in counted.values()) > 20  # the bots do attack
    assert {r.side: [r.attacks, r.won, round(r.mean_margin * r.attacks)] for r in got.rows} == counted


def test_core_end_reasons_and_first_player_answer_what_lw_victories_and_lw_first_player_did(world) -> None:
    """The retired ``lw-victories`` and ``lw-first-player`` (issue 29) against the same recount: the core
    ``end-reasons`` and ``first-player`` of the system answer it."""
    reader, games = world
    reasons = Counter(SYSTEM.fold(events).end_reason for events in games)
    got: Counter[str | None] = Counter()
    for row in stats.end_reasons(reader, FILTERS).rows:
        got[row.end_reason] += row.games
    assert got == reasons and sum(got.values()) == GAMES
    first: Counter[str] = Counter()
    for events in games:
        chosen = next(e.first for e in events if isinstance(e, FirstPlayerChosen))
        first[_results(events)[chosen]] += 1
    overall = stats.first_player(reader, FILTERS).overall
    assert (overall.games, overall.wins, overall.draws, overall.losses) == (
        GAMES, first["win"], first["draw"], first["loss"])


def test_labels_give_each_seat_its_army_and_the_variant() -> None:
    started = SYSTEM.start(SYSTEM.sample_setup(2, 1))[0]
    labels = analytics.labels(started)
    assert labels.armies == {"p1": "legion", "p2": "balanced"} and labels.variant == "medium+alternate"
    assert labels.mode == "sealed" and labels.rules_version == SYSTEM.rules_version
