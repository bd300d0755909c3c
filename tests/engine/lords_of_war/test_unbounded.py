"""The unbounded variant (§9): no mat edges, squares named x,y (A1 = 0,0), negative coordinates allowed."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.lords_of_war import fold, state_to_builtins
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.bots import play_bot_game
from tests.engine.lords_of_war.given import act, state, types

UNBOUNDED = {"unbounded": True}


def test_unbounded_squares_are_named_x_y():
    assert geo.name(geo.parse("C3", False), True) == "2,2"  # type: ignore[arg-type]
    assert geo.parse("-3,7", True) == geo.key(-3, 7)
    assert geo.name(geo.key(-3, 7), True) == "-3,7"
    assert geo.parse("C3", True) is None and geo.parse("2,2", False) is None


def test_unbounded_placement_beyond_the_mat_edge():
    s = state([("0,0", "dwarves/dwarf-slugger-1", "p2")], hands={"p1": ["orcs/gonke-longtooth", "orcs/orc-butcher"]},
              variant=UNBOUNDED)
    events = act(s, type="place", player="p1", card="orcs/gonke-longtooth", square="0,-1")  # N5 at 0,0
    assert types(events) == ["placed", "eliminated"]
    assert events[1].units[0].square == "0,0"
    view = state_to_builtins(fold(events, s))
    assert view["board"] == [{"square": "0,-1", "card": "orcs/gonke-longtooth", "owner": "p1"}]


def test_unbounded_malformed_square():
    s = state([("0,0", "dwarves/dwarf-slugger-1", "p2")], hands={"p1": ["orcs/gonke-longtooth"]}, variant=UNBOUNDED)
    with pytest.raises(RuleError) as info:
        act(s, type="place", player="p1", card="orcs/gonke-longtooth", square="0;-1")
    assert info.value.code == "malformed" and "x,y" in info.value.message


def test_unbounded_bot_game_goes_off_the_mat_and_ends():
    events = play_bot_game(11, ("elves", "undead"), UNBOUNDED, ("greedy", "random"))
    s = fold(events)
    assert s.phase == "over"
    assert all(geo.parse(e.square, True) is not None for e in events if type(e).tag_name() == "placed")
