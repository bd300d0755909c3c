"""Ranged attacks (§6, R5): who may shoot, at what, how often; shots add to melee damage."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from events.lords_of_war import Eliminated, Shot
from tests.engine.lords_of_war.given import act, state, types

CATAPULT = "orcs/orc-catapult"  # E1 W1, defence 4, ranged 4, grid dx -1..1, dy 1..3
BOW_PEST = "orcs/goblin-bow-pest"  # N2 NE1 NW1, defence 3, ranged 2, same grid
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1
GENERAL = "orcs/gonke-longtooth"
SPIKEMAN_2 = "orcs/goblin-spikeman-2"  # SW1 W1 NW1
SLUGGER = "dwarves/dwarf-slugger-1"  # N3, defence 3
SLUGGER_E = "dwarves/dwarf-slugger-2"  # E3
GORDONA = "dwarves/gordona-ironhelm"  # N4 E4 S4 W4, defence 6
BALLISTA = "dwarves/dwarf-ballista"


def refused(s, code: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert info.value.code == code, info.value
    assert info.value.rule == "§6"
    return info.value


def shot(shooter: str, target: str) -> dict:
    return {"shooter": shooter, "target": target}


def test_shots_a_unit_on_the_mat_shoots_in_the_turn_of_its_owner():  # R5: not only the unit just placed
    s = state([("C2", CATAPULT, "p1"), ("C5", SLUGGER, "p2"), ("F5", GORDONA, "p2")],
              hands={"p1": [SHANKER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="B4", shots=[shot("C2", "C5")])
    assert events[1] == Shot(player="p1", shooter_square="C2", shooter_card=CATAPULT, target_square="C5",
                             target_card=SLUGGER, value=4)
    assert isinstance(events[2], Eliminated) and events[2].units[0].square == "C5"


def test_shots_need_no_line_of_sight():
    s = state([("C2", CATAPULT, "p1"), ("C3", SPIKEMAN_2, "p1"), ("C5", SLUGGER, "p2"),
               ("C4", "dwarves/dwarf-slugger-3", "p2")],
              hands={"p1": [BOW_PEST, GENERAL]})
    events = act(s, type="place", player="p1", card=BOW_PEST, square="B2", shots=[shot("C2", "C5")])
    assert "shot" in types(events)


def test_shots_several_shooters_add_up_on_one_target():
    s = state([("C2", BOW_PEST, "p1"), ("D5", GORDONA, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    events = act(s, type="place", player="p1", card=CATAPULT, square="D2", shots=[shot("C2", "D5"), shot("D2", "D5")])
    assert types(events) == ["placed", "shot", "shot"]  # 2 + 4 = 6 is not > 6
    s2 = state([("C2", BOW_PEST, "p1"), ("D5", "dwarves/dwarf-marauder-1", "p2")], hands={"p1": [CATAPULT, GENERAL]})
    events = act(s2, type="place", player="p1", card=CATAPULT, square="D2", shots=[shot("C2", "D5"), shot("D2", "D5")])
    assert events[-1].units[0].damage == 6


def test_shots_refuse_an_engaged_shooter():
    # the Slugger-2 on D2 points E (its owner's frame) = board west at C2: the Catapult is engaged
    s = state([("C2", CATAPULT, "p1"), ("D2", SLUGGER_E, "p2"), ("C5", SLUGGER, "p2")],
              hands={"p1": [SHANKER_1, GENERAL]})
    error = refused(s, "shooter_engaged", type="place", player="p1", card=GENERAL, square="D1",
                    shots=[shot("C2", "C5")])
    assert "Orc Catapult at C2 is engaged" in error.message


def test_shots_a_shooter_next_to_an_enemy_that_does_not_point_back_may_shoot():
    # the Catapult's E arrow points at the Slugger on D2, whose only arrow (N for p2 = board south) misses it
    s = state([("C2", CATAPULT, "p1"), ("D2", SLUGGER, "p2"), ("C5", "dwarves/dwarf-slugger-3", "p2")],
              hands={"p1": [SHANKER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="B4", shots=[shot("C2", "C5")])
    assert "shot" in types(events)


def test_shots_refuse_a_target_outside_the_grid():
    s = state([("C2", CATAPULT, "p1"), ("C6", SLUGGER, "p2"), ("B4", SLUGGER_E, "p2")],
              hands={"p1": [SHANKER_1, GENERAL]})
    refused(s, "target_out_of_grid", type="place", player="p1", card=GENERAL, square="A3", shots=[shot("C2", "C6")])


def test_shots_refuse_a_shooter_that_already_shot():
    s = state([("C2", CATAPULT, "p1"), ("C5", SLUGGER, "p2"), ("D4", SLUGGER_E, "p2")],
              hands={"p1": [SHANKER_1, GENERAL]})
    refused(s, "already_shot", type="place", player="p1", card=SHANKER_1, square="B4",
            shots=[shot("C2", "C5"), shot("C2", "D4")])


def test_shots_refuse_a_unit_that_is_not_a_shooter():
    s = state([("C2", SHANKER_1, "p1"), ("C5", SLUGGER, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    error = refused(s, "not_a_shooter", type="place", player="p1", card=CATAPULT, square="B2", shots=[shot("C2", "C5")])
    assert "Goblin Shanker at C2 is not a ranged unit" in error.message
    refused(s, "not_a_shooter", type="place", player="p1", card=CATAPULT, square="B2", shots=[shot("C5", "C2")])
    refused(s, "not_a_shooter", type="place", player="p1", card=CATAPULT, square="B2", shots=[shot("E1", "C5")])


def test_shots_refuse_an_empty_or_friendly_target():
    s = state([("C2", CATAPULT, "p1"), ("C4", SPIKEMAN_2, "p1"), ("C5", SLUGGER, "p2")],
              hands={"p1": [BOW_PEST, GENERAL]})
    refused(s, "no_target", type="place", player="p1", card=BOW_PEST, square="B2", shots=[shot("C2", "D4")])
    refused(s, "friendly_target", type="place", player="p1", card=BOW_PEST, square="B2", shots=[shot("C2", "C4")])


def test_shots_p2_grid_is_rotated():
    # p2's Ballista on D5 aims "forward" = board south: D3 (dy 2) is in its grid, D6 behind it is not
    s = state([("D5", BALLISTA, "p2"), ("D3", "orcs/goblin-shanker-2", "p1"), ("C6", "orcs/orc-catapult", "p1")],
              to_move="p2", hands={"p2": ["dwarves/dwarf-impaler-1", "dwarves/krod-klouthammer"]},
              armies=("orcs", "dwarves"))
    events = act(s, type="place", player="p2", card="dwarves/dwarf-impaler-1", square="E5", shots=[shot("D5", "D3")])
    assert events[1].value == 4
    with pytest.raises(RuleError) as info:
        act(s, type="place", player="p2", card="dwarves/dwarf-impaler-1", square="E5", shots=[shot("D5", "D7")])
    assert info.value.code == "off_mat"
