"""Properties over Art of War bot games: fold equals the evolve loop, every card is in exactly one place (21 a
player), at most 5 in standby, damage only within a turn, the spectator never sees a hand, records round-trip and
verify passes. A few games in the default run; many with ``-m slow``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.art_of_war import SYSTEM
from engine.play import play, verify
from events.art_of_war import TurnStarted
from replay.archive.games import import_record
from replay.art_of_war import notation, views
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore


def _check(index: int, seed: int, bots: tuple[str, ...]) -> None:
    game = play(SYSTEM, SYSTEM.sample_setup(index, seed), bots, max_actions=3000)
    assert not game.conceded_at_limit
    events = game.events
    state = SYSTEM.initial_state()
    for n, event in enumerate(events):
        state = SYSTEM.evolve(state, event)
        if n % 9 == 0:
            assert SYSTEM.fold(events[: n + 1]) == state
        if isinstance(event, TurnStarted):  # damage was cleared at the turn's end
            assert all(s.unit.damage == 0 for p in state.players for s in p.field)
        if state.phase not in ("setup", "redraw"):  # the KING joins at kings_taken
            assert all(len(p.standby) <= 5 for p in state.players)
            # the KINGs and 20 cards a player, each in one place: a card conscripted out of a kingdom (index 3,
            # seed 169) stands on its conscriptor's field, so the count is over every player's places at once
            places = sum(len(p.hand) + len(p.deck) + len(p.standby) + len(p.graveyard) + len(p.field) + len(p.kingdom)
                         for p in state.players)
            assert places == 21 * len(state.players)
        spectator = views.state_view(state, "spectator")
        assert all(p["hand"] is None and p["deck"] is None for p in spectator["players"])
    assert verify(SYSTEM, events) is None
    text = notation.export(events, {}, view="all")
    copy = GameService(MemoryEventStore())
    again = import_record(copy, text)
    assert [r.event for r in copy.events(again)] == events


BOTS = st.tuples(st.sampled_from(("random", "greedy")), st.sampled_from(("random", "greedy")))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 11), seed=st.integers(0, 2**63 - 1), bots=BOTS)
@example(index=3, seed=169, bots=("greedy", "greedy"))  # a card conscripted out of a kingdom onto a field
def test_property_bot_games_keep_the_rules_invariants(index: int, seed: int, bots: tuple[str, ...]) -> None:
    _check(index, seed, bots)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 11), seed=st.integers(0, 2**63 - 1), bots=BOTS)
def test_property_many_bot_games_keep_the_rules_invariants(index: int, seed: int, bots: tuple[str, ...]) -> None:
    _check(index, seed, bots)
