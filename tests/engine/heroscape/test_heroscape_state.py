"""HeroScape's one way to apply an event (engine.folding): thaw, apply, freeze; evolve and fold derived from them."""

from __future__ import annotations

import msgspec
import pytest

from engine.heroscape import SYSTEM
from engine.heroscape.state import State, apply, evolve, fold, freeze, thaw
from engine.play import play
from events.heroscape import HeroScapeEvent


def _game(index: int) -> list[HeroScapeEvent]:
    setup = SYSTEM.sample_setup(index, 4000 + index)
    return list(play(SYSTEM, setup, ("greedy", "random"), max_actions=400).events)


def _states(events: list[HeroScapeEvent]) -> list[State]:
    out = [State()]
    for event in events:
        out.append(evolve(out[-1], event))
    return out


@pytest.mark.parametrize("index", range(3))
def test_freeze_of_thaw_gives_back_the_state_at_every_prefix(index: int) -> None:
    for state in _states(_game(index)):
        assert freeze(thaw(state)) == state


@pytest.mark.parametrize("index", range(3))
def test_evolve_leaves_the_state_it_came_from_unchanged(index: int) -> None:
    events = _game(index)
    states = _states(events)
    for state, event in zip(states, events, strict=False):
        before = msgspec.json.encode(state)
        evolve(state, event)
        work = thaw(state)  # and a working state applied further shares nothing mutable with it
        apply(work, event)
        assert msgspec.json.encode(state) == before


@pytest.mark.parametrize("index", range(3))
def test_fold_from_any_state_equals_evolve_one_event_at_a_time(index: int) -> None:
    events = _game(index)
    states = _states(events)
    assert fold(events) == states[-1]
    for cut in range(0, len(events), 7):  # a thaw mid-turn knows nothing of the turn's moved figures yet
        assert fold(events[cut:], states[cut]) == states[-1]

