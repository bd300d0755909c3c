"""Legal-action enumeration, the two bots, and the GameSystem object other packages use."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.lords_of_war import (
    SYSTEM,
    GreedyBot,
    RandomBot,
    decide,
    fold,
    legal_actions,
    parse_action,
    play_bot_game,
)
from engine.lords_of_war.actions import Draw, Place, Recall
from engine.lords_of_war.rules import legal_placements, legal_shots, recallable_squares
from engine.system import GameSystem
from engine.systems import UnknownSystem, get_system, plugin_of
from tests.engine.lords_of_war.given import given, play, state

GENERAL = "orcs/gonke-longtooth"
SHANKER_1 = "orcs/goblin-shanker-1"
CATAPULT = "orcs/orc-catapult"
SLUGGER = "dwarves/dwarf-slugger-1"
MARAUDER_1 = "dwarves/dwarf-marauder-1"


def test_legal_actions_challenge_offers_each_card_on_the_challenge_square():
    s = fold(given())
    actions = legal_actions(s)
    assert {a.square for a in actions} == {"C3"}
    assert sorted(a.card for a in actions) == sorted(set(s.hands[0]))


def test_legal_actions_placements_are_exactly_what_decide_accepts():
    s = state([("C3", SLUGGER, "p2"), ("E5", MARAUDER_1, "p2"), ("B2", SHANKER_1, "p1")],
              hands={"p1": [GENERAL, CATAPULT, SHANKER_1]})
    offered = {(a.card, a.square) for a in legal_placements(s)}
    accepted = set()
    for card in (GENERAL, CATAPULT, SHANKER_1):
        for column in "ABCDEFG":
            for row in range(1, 7):
                try:
                    decide(s, Place(player="p1", card=card, square=f"{column}{row}"))
                    accepted.add((card, f"{column}{row}"))
                except RuleError:
                    pass
    assert offered == accepted
    assert ("orcs/orc-catapult", "A1") in offered  # support next to the friendly Shanker


def test_legal_actions_shots_list_each_shooter_and_its_targets():
    s = state([("C3", SLUGGER, "p2"), ("E5", MARAUDER_1, "p2"), ("B2", SHANKER_1, "p1")],
              hands={"p1": [GENERAL, CATAPULT]})
    assert legal_shots(s, Place(player="p1", card=CATAPULT, square="D2")) == {"D2": ["C3", "E5"]}


def test_legal_actions_reinforce_offers_draw_and_the_recallable_units():
    s = state([("C3", SLUGGER, "p2"), ("F1", SHANKER_1, "p1")], hands={"p1": [GENERAL, CATAPULT]})
    s = play(s, type="place", player="p1", card=CATAPULT, square="G1")
    assert recallable_squares(s) == ["F1"]
    assert legal_actions(s) == [Draw(player="p1"), Recall(player="p1", square="F1")]


def test_bots_random_bot_is_reproducible_and_greedy_takes_the_kill():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [GENERAL, "orcs/goblin-spikeman-1"]})
    assert RandomBot(9).choose(s) == RandomBot(9).choose(s)
    choice = GreedyBot().choose(s)
    events = decide(s, choice)
    assert choice.card == GENERAL and any(type(e).tag_name() == "eliminated" for e in events)


def test_bots_play_bot_game_returns_a_finished_game():
    events = play_bot_game(4, ("templars", "lizardmen"), {"intermediate": True}, ("greedy", "random"))
    assert type(events[0]).tag_name() == "game_started" and type(events[-1]).tag_name() == "game_ended"
    assert fold(events).phase == "over"


def test_system_is_registered_and_speaks_the_protocol():
    system = get_system("lords-of-war")
    assert system is SYSTEM and plugin_of("lords-of-war").engine is SYSTEM
    assert isinstance(system, GameSystem)  # every capability's members (engine/system.py)
    assert (system.name, system.rules_version) == ("lords-of-war", "lords-of-war/1")
    with pytest.raises(UnknownSystem):
        get_system("chess")
    events = system.start({"players": [{"id": "p1", "name": "A", "army": "undead"},
                                       {"id": "p2", "name": "B", "army": "elves"}], "seed": 8})
    s = system.fold(events)
    card = s.hands[0][0]
    produced = system.decide(s, {"type": "place", "player": "p1", "card": card, "square": "C3"})
    s = system.fold([*events, *produced])
    view = system.state_to_builtins(s)
    assert view["board"] == [{"square": "C3", "card": card, "owner": "p1"}] and view["seq"] == 4
    assert system.codec.decode_json(system.codec.encode_json(produced[0])) == produced[0]
    assert system.legal_actions(s) == [Draw(player="p1")]


def test_parse_action_refuses_what_is_not_an_action():
    for bad in (["place"], "draw", None, {"type": "draw"}, {"type": "recall", "player": "p1", "square": 3}):
        with pytest.raises(RuleError) as info:
            parse_action(bad)
        assert info.value.code == "malformed" and info.value.message
    assert parse_action({"type": "draw", "player": "p2", "card": None}) == Draw(player="p2")
