"""Elimination (§5.2): simultaneous, friendly units never hurt each other, kill piles, involvement."""

from __future__ import annotations

from engine.lords_of_war import fold, state_to_builtins
from engine.lords_of_war.catalogue import DEFAULT_TABLE
from engine.lords_of_war.rules import destroyed_units
from tests.engine.lords_of_war.given import act, state

GENERAL = "orcs/gonke-longtooth"
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1, defence 3
DEATHBRINGER_2 = "orcs/orc-deathbringer-2"  # SE3 S5 SW3, defence 2
BUTCHER = "orcs/orc-butcher"  # N4 NE3 E3 W3 NW3, defence 4
SLUGGER = "dwarves/dwarf-slugger-1"  # N3, defence 3
MARAUDER_1 = "dwarves/dwarf-marauder-1"  # N4 NE2 E1, defence 4
GORDONA = "dwarves/gordona-ironhelm"  # N4 E4 S4 W4, defence 6


def test_elimination_equal_damage_survives():
    # Shanker-1's N4 on the Marauder (defence 4): 4 is not > 4
    s = state([("C4", MARAUDER_1, "p2")], hands={"p1": [SHANKER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="C3")  # N4 at C4; the Marauder's N4 hits C3
    assert [u.square for u in events[1].units] == ["C3"]  # 4 > 3 destroys the Shanker; the Marauder (4) survives


def test_elimination_is_simultaneous_suicide_destroys_both():
    # Deathbringer S5 destroys the Marauder below; the Slugger above points N (board south) 3 > 2 at it
    s = state([("D3", MARAUDER_1, "p2"), ("D5", SLUGGER, "p2")], hands={"p1": [DEATHBRINGER_2, GENERAL]})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_2, square="D4")
    (eliminated,) = [e for e in events if type(e).tag_name() == "eliminated"]
    assert [(u.square, u.owner) for u in eliminated.units] == [("D3", "p2"), ("D4", "p1")]
    assert eliminated.kills_to == {"p1": 1, "p2": 1}
    after = fold(events, s)
    assert after.piles == ((MARAUDER_1,), (DEATHBRINGER_2,))
    one_kill = {"total": 1, "commanders": 0}
    assert state_to_builtins(after)["kills"] == {"p1": one_kill, "p2": one_kill}


def test_elimination_only_the_placed_unit_destroyed():
    s = state([("D5", GORDONA, "p2")], hands={"p1": [SHANKER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="D4")  # 4 on Gordona (6); Gordona's 4 > 3
    assert [(u.square, u.card) for u in events[1].units] == [("D4", SHANKER_1)]
    assert fold(events, s).placed_square is None


def test_elimination_friendly_units_never_damage_each_other():
    # the Butcher's arrows hit the friendly Shanker on all sides, the enemy nowhere: nothing happens to the Shanker
    s = state([("D4", SHANKER_1, "p1"), ("D6", SLUGGER, "p2")], hands={"p1": [BUTCHER, GENERAL]})
    events = act(s, type="place", player="p1", card=BUTCHER, square="D5")  # N4 on the Slugger on D6, S of it D4
    assert [u.square for u in events[1].units] == ["D6"]


def test_elimination_records_every_attacker_of_a_destroyed_unit():
    s = state([("D4", MARAUDER_1, "p2"), ("C3", SHANKER_1, "p1")], hands={"p1": [SHANKER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="D3")  # N4 + the C3 Shanker's NE1 = 5 > 4
    shanker, marauder = events[1].units  # the Marauder's N4 destroys the placed Shanker at the same time
    assert (shanker.square, marauder.square, marauder.damage) == ("D3", "D4", 5)
    assert {(a.square, a.direction, a.value) for a in marauder.attackers} == {("C3", "NE", 1), ("D3", "N", 4)}
    after = fold(events, s)
    assert state_to_builtins(after)["involved"] == ["C3"]  # D3 and D4 are gone; C3 may not be recalled this turn


def test_elimination_full_check_finds_nothing_on_a_quiet_board():
    s = state([("D4", MARAUDER_1, "p2"), ("C3", SHANKER_1, "p1")], hands={"p1": [SHANKER_1, GENERAL]})
    assert destroyed_units(dict(s.board), {}, None, DEFAULT_TABLE) == []
