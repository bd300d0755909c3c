"""Victory (§7): 20 cards or 4 commanders (configurable thresholds), concession at any time by either player."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.lords_of_war import fold, state_to_builtins
from events.lords_of_war import Conceded, GameEnded
from tests.engine.lords_of_war.given import act, given, play, state, types

GENERAL = "orcs/gonke-longtooth"
SHANKER_2 = "orcs/goblin-shanker-2"  # SE1 S4
DEATHBRINGER_2 = "orcs/orc-deathbringer-2"  # S5
MARAUDER_1 = "dwarves/dwarf-marauder-1"
KROD = "dwarves/krod-klouthammer"


def kill_marauder(**kwargs):
    s = state([("D3", MARAUDER_1, "p2")], hands={"p1": [DEATHBRINGER_2, GENERAL]}, **kwargs)
    return s, act(s, type="place", player="p1", card=DEATHBRINGER_2, square="D4")


def test_victory_twenty_cards():
    s, events = kill_marauder(kills={"p1": {"total": 19, "commanders": 0}})
    assert events[-1] == GameEnded(winner="p1", reason="kills")
    after = fold(events, s)
    assert state_to_builtins(after)["winner"] == "p1" and after.phase == "over"
    assert state_to_builtins(after)["kills"]["p1"] == {"total": 20, "commanders": 0}


def test_victory_four_commanders():
    s = state([("D4", KROD, "p2"), ("D5", SHANKER_2, "p1")], hands={"p1": [GENERAL, SHANKER_2]},
              kills={"p1": {"total": 5, "commanders": 3}})
    events = act(s, type="place", player="p1", card=GENERAL, square="C3")
    assert events[-1] == GameEnded(winner="p1", reason="commanders")
    assert "extra_turn_granted" not in types(events)  # the game is over


def test_victory_thresholds_are_game_settings():
    _, events = kill_marauder(variant={"kill_target": 1, "command_target": 6})
    assert events[-1] == GameEnded(winner="p1", reason="kills")
    _, events = kill_marauder(kills={"p1": {"total": 19, "commanders": 0}}, variant={"kill_target": 21})
    assert types(events) == ["placed", "eliminated"]


def test_victory_either_player_may_concede_at_any_time():
    s = fold(given())
    assert act(s, type="concede", player="p2") == (Conceded(player="p2"), GameEnded(winner="p1", reason="concession"))
    s, events = kill_marauder()
    s = fold(events, s)  # p1's reinforce phase
    assert act(s, type="concede", player="p1")[-1] == GameEnded(winner="p2", reason="concession")
    assert act(s, type="concede", player="p2")[-1] == GameEnded(winner="p1", reason="concession")
    over = play(s, type="concede", player="p2")
    with pytest.raises(RuleError) as info:
        act(over, type="draw", player="p1")
    assert info.value.code == "game_over"
    assert state_to_builtins(over)["end_reason"] == "concession"
