"""engine.play: bot games, the action limit's concessions, broken systems, verification, through the protocol."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from warlog_pebbles.rules import PEBBLES, GreedyBot, RandomBot

from engine.lords_of_war import SYSTEM as LORDS_OF_WAR
from engine.play import play, seat_bots, verify


def test_play_the_action_limit_ends_a_game_by_concessions():
    game = play(LORDS_OF_WAR, LORDS_OF_WAR.sample_setup(0, 9), ("random", "greedy"), max_actions=4)
    assert game.conceded_at_limit and len(game.actions) == 5
    outcome = LORDS_OF_WAR.outcome(LORDS_OF_WAR.fold(game.events))
    assert outcome is not None and outcome.reason == "concession" and outcome.winners == ("p2",)


def test_play_the_limit_concedes_seat_by_seat_where_one_concession_does_not_end_the_game():
    game = play(PEBBLES, PEBBLES.sample_setup(1, 9), ("greedy",), max_actions=2)  # four seats, no teams
    assert game.conceded_at_limit and [type(a.action).__name__ for a in game.actions[2:]] == ["Concede"] * 3
    outcome = PEBBLES.outcome(PEBBLES.fold(game.events))
    assert outcome is not None and outcome.reason == "last_standing"
    assert outcome.placings[1:] == (("p1",), ("p4",), ("p3",))  # the last to concede places highest among those out


def test_seat_bots_by_seat_in_order_or_as_bots():
    seats = PEBBLES.seats(PEBBLES.sample_setup(0, 1))
    mine = GreedyBot(0)
    bots = seat_bots(PEBBLES, seats, {"p1": "random", "p2": mine, "p3": "greedy"}, seed=10)
    assert bots["p2"] is mine and isinstance(bots["p1"], RandomBot) and isinstance(bots["p3"], GreedyBot)
    assert bots["p1"].rng.state == RandomBot(10).rng.state  # p1: the seed; p2: seed + 1; ...
    in_order = seat_bots(PEBBLES, seats, ("greedy", "random"), seed=10)  # the last choice fills the other seats
    assert [type(in_order[s.id]).__name__ for s in seats] == ["GreedyBot", "RandomBot", "RandomBot"]
    assert in_order["p3"].rng.state == RandomBot(12).rng.state
    assert isinstance(seat_bots(PEBBLES, seats, "random", seed=1)["p3"], RandomBot)


@pytest.mark.parametrize("bots, problem", [
    (("clever",), "unknown bot 'clever' for pebbles: greedy, random"),
    ({"p1": "random"}, "no bot for seat p2"),
    ((), "no bots"),
])
def test_seat_bots_refuse_what_cannot_play(bots: Any, problem: str):
    with pytest.raises(ValueError, match=problem):
        seat_bots(PEBBLES, PEBBLES.seats(PEBBLES.sample_setup(0, 1)), bots, seed=1)


def test_play_a_running_game_that_awaits_nobody_is_a_broken_system():
    stuck = dataclasses.replace(PEBBLES, to_act=lambda state: ())
    with pytest.raises(RuntimeError, match="awaits no seat"):
        play(stuck, PEBBLES.sample_setup(0, 1))


def test_play_a_game_that_concessions_do_not_end_is_a_broken_system():
    endless = dataclasses.replace(PEBBLES, decide=lambda state, action: ())
    with pytest.raises(RuntimeError, match="does not end even by concessions"):
        play(endless, PEBBLES.sample_setup(0, 1), max_actions=5)


def test_verify_names_the_first_divergence():
    events = play(PEBBLES, PEBBLES.sample_setup(0, 3), ("greedy",)).events
    assert verify(PEBBLES, events) is None
    assert verify(PEBBLES, events[1:]) == "event 1: a pebbles stream starts with game_started"
    lost_bonus = events[:2] + events[3:]
    assert verify(PEBBLES, lost_bonus) == "events 1..3: the opening differs from what the recorded setup gives today"
    lost_take = events[:4] + events[5:]  # the next seat's take is now out of turn
    assert verify(PEBBLES, lost_take) == ("event 5: Take(count=3, player='p2') is now refused: it is p1's turn "
                                          "(not_your_turn, P1)")
