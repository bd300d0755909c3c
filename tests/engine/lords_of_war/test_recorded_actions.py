"""recorded_actions: from a stored stream back to the actions that produced it, and streams no action makes."""

from __future__ import annotations

import itertools

import pytest

from engine.lords_of_war import Draw, Place, play_bot_game
from engine.lords_of_war.history import StreamError, recorded_actions
from events.lords_of_war import CardDrawn, HandDealt, HandRevealed, Placed


def test_recorded_actions_cover_every_event_after_the_opening():
    events = play_bot_game(5, ("orcs", "elves"), {"intermediate": True})
    spans = recorded_actions(events)
    assert spans[0][0] == 3  # game_started, hand_dealt, hand_dealt
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert spans[-1][1] == len(events)
    assert isinstance(spans[0][2], Place) and isinstance(spans[1][2], Draw)


def test_recorded_actions_refuse_a_consequence_without_its_action():
    events = play_bot_game(5, ("orcs", "elves"))
    consequence = next(i for i, e in enumerate(events) if e.tag_name() in ("eliminated", "game_ended"))
    with pytest.raises(StreamError) as caught:
        recorded_actions(events[:3] + events[consequence:])
    assert caught.value.index == 3 and "does not start an action" in caught.value.message


def test_recorded_actions_refuse_a_reveal_not_followed_by_that_players_placement():
    events = play_bot_game(5, ("orcs", "elves"))
    bad = [*events[:3], HandRevealed(player="p1", cards=("orcs/orc-butcher",)), CardDrawn(player="p1", card=None)]
    with pytest.raises(StreamError) as caught:
        recorded_actions(bad)
    assert caught.value.index == 3


def test_recorded_actions_refuse_opening_events_after_the_opening():
    events = play_bot_game(5, ("orcs", "elves"))
    first = next(e for e in events if isinstance(e, Placed))
    bad = [*events[:3], first, HandDealt(player="p1", cards=None, count=6)]
    with pytest.raises(StreamError) as caught:
        recorded_actions(bad)
    assert caught.value.index == 4
