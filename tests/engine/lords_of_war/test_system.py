"""Lords of War through the GameSystem protocol: seats, the seat to act, the outcome, records, bots, samples."""

from __future__ import annotations

import pytest

from engine.errors import SetupError, StreamError
from engine.lords_of_war import SYSTEM, Concede, Draw, fold, play_bot_game
from engine.lords_of_war.bots import GreedyBot, RandomBot
from engine.play import play
from engine.system import GameSystem, Outcome, RecordedAction, Seat
from events.lords_of_war import GameEnded
from tests.engine.lords_of_war.given import given, state

SETUP = {"system": "lords-of-war", "seed": 3, "players": [{"id": "p1", "name": "Ann", "army": "orcs"},
                                                            {"id": "p2", "name": "Bob", "army": "elves"}]}


def test_system_implements_the_whole_protocol():
    assert isinstance(SYSTEM, GameSystem)
    assert set(SYSTEM.bots) == {"random", "greedy"}
    assert isinstance(SYSTEM.bots["random"](5), RandomBot) and isinstance(SYSTEM.bots["greedy"](5), GreedyBot)


def test_system_two_seats_without_teams():
    assert SYSTEM.seats(SETUP) == (Seat(id="p1", index=0), Seat(id="p2", index=1))
    assert (SYSTEM.seat_counts().min, SYSTEM.seat_counts().max) == (2, 6)  # §10: up to six in two teams
    assert (SYSTEM.seat_counts(SETUP).min, SYSTEM.seat_counts(SETUP).max) == (2, 3)  # without teams: 2 or 3
    teams = SYSTEM.seat_counts({"variant": {"teams": True}})
    assert list(teams.counts) == [3, 4, 6]  # three players are §10's game too; the flag may be left out
    for players in ([], SETUP["players"][:1], "p1,p2"):
        with pytest.raises(SetupError) as refused:
            SYSTEM.seats({**SETUP, "players": players})
        assert (refused.value.code, refused.value.rule) == ("invalid_setup", "§10")
    with pytest.raises(SetupError) as refused:  # four without teams: §10, and the refusal says how to fix it
        SYSTEM.seats({**SETUP, "players": SETUP["players"] * 2})
    assert (refused.value.code, refused.value.rule) == ("invalid_variant", "§10")
    assert refused.value.message == '4 players play the team rules (§10): set "variant": {"teams": true}'
    with pytest.raises(SetupError):
        SYSTEM.seats({**SETUP, "players": SETUP["players"] * 2 + SETUP["players"][:1], "variant": {"teams": True}})


def test_system_to_act_is_the_active_player_through_deploy_and_reinforce():
    events = list(SYSTEM.start(SETUP))
    assert SYSTEM.to_act(SYSTEM.initial_state()) == () and SYSTEM.turn(SYSTEM.initial_state()) == 0
    s = SYSTEM.fold(events)
    assert SYSTEM.to_act(s) == ("p1",) and SYSTEM.turn(s) == 0  # the challenge is turn 0 (§4)
    card = s.hands[0][0]
    s = SYSTEM.fold([*events, *SYSTEM.decide(s, SYSTEM.parse_action(
        {"type": "place", "player": "p1", "card": card, "square": "C3"}))])
    assert s.phase == "reinforce" and SYSTEM.to_act(s) == ("p1",)
    assert SYSTEM.legal_actions(s, "p2") == [] and SYSTEM.legal_actions(s, "p1") == [Draw(player="p1")]


def test_system_outcome_of_a_concession_the_winner_first_with_kills_as_scores():
    s = state([("C3", "orcs/orc-ravager-2", "p1"), ("E5", "dwarves/dwarf-marauder-1", "p2")],
              kills={"p1": {"total": 7, "commanders": 1}, "p2": {"total": 2, "commanders": 0}})
    assert SYSTEM.outcome(s) is None
    over = SYSTEM.fold([*given([("C3", "orcs/orc-ravager-2", "p1"), ("E5", "dwarves/dwarf-marauder-1", "p2")],
                               kills={"p1": {"total": 7, "commanders": 1}, "p2": {"total": 2, "commanders": 0}}),
                        *SYSTEM.decide(s, Concede(player="p1"))])
    assert SYSTEM.outcome(over) == Outcome(winners=("p2",), placings=(("p2",), ("p1",)), reason="concession",
                                           scores={"p1": 7, "p2": 2})
    assert SYSTEM.to_act(over) == ()


@pytest.mark.parametrize("winner", ["draw", None])
def test_system_outcome_of_a_recorded_draw_places_both_together(winner):
    over = fold([*given(), GameEnded(winner=winner, reason="exhausted")])
    outcome = SYSTEM.outcome(over)
    assert outcome is not None and outcome.is_draw and outcome.placings == (("p1", "p2"),)
    assert outcome.reason == "exhausted" and outcome.scores == {"p1": 0, "p2": 0}


def test_system_recorded_actions_carry_the_seat_and_the_span():
    events = play_bot_game(5, ("orcs", "elves"))
    recorded = SYSTEM.recorded_actions(events)
    assert recorded[0] == RecordedAction(3, recorded[0].stop, "p1", recorded[0].action)
    assert all(step.seat == step.action.player for step in recorded)
    assert SYSTEM.recorded_setup(events) == {
        "system": "lords-of-war", "seed": 5, "variant": {"mode": "sealed", "intermediate": False, "unbounded": False,
                                                          "kill_target": 20, "command_target": 4},
        "players": [{"id": "p1", "name": "bot 1", "army": "orcs"}, {"id": "p2", "name": "bot 2", "army": "elves"}]}
    with pytest.raises(StreamError):
        SYSTEM.recorded_setup(events[1:])
    steps = list(SYSTEM.redecide(events))
    assert [(s.start, s.stop, s.seat, s.action) for s in steps] == [tuple(r) for r in recorded]
    assert all(s.outcome == tuple(events[s.start:s.stop]) for s in steps)


@pytest.mark.parametrize("seed, variant, bots", [
    (1, {}, ("random", "random")),
    (2, {"intermediate": True}, ("greedy", "random")),
    (3, {"unbounded": True}, ("random", "greedy")),
    (4, {"mode": "table"}, ("greedy", "greedy")),
])
def test_system_protocol_play_is_play_bot_game(seed, variant, bots):
    """The protocol's bots are the bots the fixtures, benchmarks and demos play: the same games, event for event."""
    setup = {"system": "lords-of-war", "variant": variant, "seed": seed,
             "players": [{"id": "p1", "name": "bot 1", "army": "orcs"},
                         {"id": "p2", "name": "bot 2", "army": "dwarves"}]}
    assert play(SYSTEM, setup, bots).events == play_bot_game(seed, ("orcs", "dwarves"), variant, bots)


def test_system_sample_setups_walk_every_faction_pairing_and_every_sample_variant():
    from engine.lords_of_war import FACTIONS, SAMPLE_VARIANTS

    setups = [SYSTEM.sample_setup(index, 10 + index) for index in range(len(FACTIONS) ** 2)]
    assert {tuple(p["army"] for p in s["players"]) for s in setups} == {(a, b) for a in FACTIONS for b in FACTIONS}
    assert [s["variant"] for s in setups[: len(SAMPLE_VARIANTS)]] == list(SAMPLE_VARIANTS)
    assert [s["seed"] for s in setups[:3]] == [10, 11, 12]  # the seed given is the game's seed
    for s in setups[:6]:
        assert SYSTEM.fold(SYSTEM.start(s)).phase == "deploy"
    assert SYSTEM.sample_setup(0, 1, seats=2)["players"][1]["id"] == "p2"
    for seats in (1, 5, 7):
        with pytest.raises(SetupError):
            SYSTEM.sample_setup(0, 1, seats=seats)


def test_system_bots_refuse_to_play_for_a_seat_not_to_act():
    s = SYSTEM.fold(SYSTEM.start(SETUP))
    for make in (RandomBot, GreedyBot):
        assert make(1).choose(s, "p1") == make(1).choose(s)
        with pytest.raises(ValueError, match="not to act"):
            make(1).choose(s, "p2")
