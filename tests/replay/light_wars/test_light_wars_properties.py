"""Properties over Light Wars bot games: fold equals the evolve loop at every prefix, bases are conserved, no two units
share a square, scores are the opponent's removed costs, every die is 1 to 6, the spectator never sees a screened
square, records round-trip and verify passes. A few games in the default run; many with ``-m slow``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.light_wars import SYSTEM
from engine.light_wars.catalogue import BASES
from engine.play import play, verify
from events.light_wars import DieRolled, TacticsDeclared
from replay.archive.games import import_record
from replay.light_wars import notation, views
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore


def _check(index: int, seed: int, bots: tuple[str, ...]) -> None:
    setup = SYSTEM.sample_setup(index, seed)
    game = play(SYSTEM, setup, bots, max_actions=3000)
    assert not game.conceded_at_limit
    events = game.events
    state = SYSTEM.initial_state()
    paid = [0, 0]
    for n, event in enumerate(events):
        state = SYSTEM.evolve(state, event)
        if n % 7 == 0:
            assert SYSTEM.fold(events[: n + 1]) == state
        if isinstance(event, TacticsDeclared):
            paid[0 if event.player == "p1" else 1] += event.paid
        if isinstance(event, DieRolled):
            assert 1 <= event.value <= 6
        for i in (0, 1):  # every base is on a unit, in the stock or paid for a tile (§2.2, §3.1, §4)
            assert sum(u.owner == i for u in state.units) + state.stock[i] + paid[i] == BASES
        squares = [u.square for u in state.units if u.square is not None and u.status != "screened"]
        assert len(squares) == len(set(squares))
        for i in (0, 1):
            assert state.scores[i] == sum(r.cost for r in state.removed if r.player != ("p1", "p2")[i]) or \
                state.phase == "over"
        spectator = views.state_view(state, "spectator")
        assert all(u["square"] is None for u in spectator["units"] if u["status"] == "screened")
    assert verify(SYSTEM, events) is None
    text = notation.export(events, {}, view="all")
    copy = GameService(MemoryEventStore())
    again = import_record(copy, text)
    assert [r.event for r in copy.events(again)] == events


BOTS = st.tuples(st.sampled_from(("random", "greedy")), st.sampled_from(("random", "greedy")))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 11), seed=st.integers(0, 2**63 - 1), bots=BOTS)
def test_property_bot_games_keep_the_rules_invariants(index: int, seed: int, bots: tuple[str, ...]) -> None:
    _check(index, seed, bots)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 11), seed=st.integers(0, 2**63 - 1), bots=BOTS)
def test_property_many_bot_games_keep_the_rules_invariants(index: int, seed: int, bots: tuple[str, ...]) -> None:
    _check(index, seed, bots)


