"""Art of War's own statistics against a recount from the events of the same games (bot games through the service
into DuckDB, projected as ``warlog serve`` projects them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.art_of_war import SYSTEM
from engine.art_of_war.catalogue import card_of, kind_of
from events.art_of_war import Damaged
from replay.analytics import stats
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


def test_core_end_reasons_and_first_player_answer_what_aow_victories_and_aow_first_player_did(world) -> None:
    """The retired ``aow-victories`` and ``aow-first-player`` (issue 29) against the same recount: the core
    ``end-reasons`` and ``first-player`` of the system answer it."""
    reader, games = world
    reasons: Counter[str] = Counter()
    first: Counter[str] = Counter()
    for events in games:
        state = SYSTEM.fold(events)
        reasons[state.end_reason or ""] += 1
        first["win" if state.winner == events[0].first else "draw" if state.winner is None else "loss"] += 1
    got: Counter[str] = Counter()
    for row in stats.end_reasons(reader, FILTERS).rows:
        got[row.end_reason or ""] += row.games
    assert got == reasons and sum(got.values()) == GAMES
    overall = stats.first_player(reader, FILTERS).overall
    assert (overall.games, overall.wins, overall.draws, overall.losses) == (
        GAMES, first["win"], first["draw"], first["loss"])


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


def test_r6_a_captured_king_counts_in_no_score_or_kingdom_statistic() -> None:
    """R6 downstream: a game ended by capturing a KING, projected as ``warlog serve`` projects it: the seats' scores
    (proj_seats, from ``outcome``) and the kingdom composition (aow_seats) count the basic units only; the KING's
    capture stays in aow-removals as the capture it was."""
    store = DuckDBEventStore(":memory:")
    projector = attach(store, background=False)
    service = GameService(store)
    setup = {"system": "art-of-war", "variant": {"mode": "table"}, "first": "p1",
             "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "longbow"}],
             "position": {"active": "p1", "turn": 3, "players": [
                 {"player": "p1", "hand": ["archer"], "deck": ["priest"], "field": [{"square": "B1",
                                                                                     "card": "iron-king"}]},
                 {"player": "p2", "deck": ["priest"], "field": [{"square": "B1", "card": "bow-king",
                                                                 "upright": False}]}]}}
    game_id = service.create_game(setup).game_id
    for action in ({"type": "entry", "card": "archer"}, {"type": "battle"},
                   {"type": "attack", "square": "B1", "target": "B1"}, {"type": "pass", "player": "p2"}):
        service.act(game_id, {"player": "p1", **action})
    projector.catch_up()
    reader = store.reader()
    try:
        scores = dict(reader.execute("SELECT seat, score FROM proj_seats WHERE game_id = $g ORDER BY seat",
                                     {"g": game_id}).fetchall())
        assert scores == {"p1": 1, "p2": 0}  # the ARCHER entered, not the KING
        kingdoms = reader.execute("SELECT seat, soldiers + archers + priests + guardians + wizards FROM aow_seats "
                                  "WHERE game_id = $g ORDER BY seat", {"g": game_id}).fetchall()
        assert kingdoms == [("p1", 1), ("p2", 0)]
        removals = analytics.removals(reader, FILTERS).rows
        assert [(r.unit_type, r.captured, r.destroyed) for r in removals] == [("king", 1, 0)]
    finally:
        reader.close()
        projector.close()
        store.close()
