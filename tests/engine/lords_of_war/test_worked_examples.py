"""The digest's §12 worked examples (the rulebook's combat examples), on the real cards.

The printed examples show pictures we do not have; the positions below are built from the cards' stat lines
(engine/lords_of_war/data/cards.json). Where a number of the example cannot happen with the real cards it is said
in the test's docstring.
"""

from __future__ import annotations

from events.lords_of_war import Attacker, DestroyedUnit, Eliminated, Placed, Shot
from tests.engine.lords_of_war.given import act, state

MARAUDER_1 = "dwarves/dwarf-marauder-1"  # N4 NE2 E1, defence 4
MARAUDER_2 = "dwarves/dwarf-marauder-2"  # N4 W1 NW2, defence 4
SLUGGER = "dwarves/dwarf-slugger-1"  # N3, defence 3
DEATHBRINGER_1 = "orcs/orc-deathbringer-1"  # N5 NE3 NW3, defence 2
DEATHBRINGER_2 = "orcs/orc-deathbringer-2"  # SE3 S5 SW3, defence 2
RAVAGER_1 = "orcs/orc-ravager-1"  # N3 NE2 E1 NW5, defence 3
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1, defence 3
SHANKER_2 = "orcs/goblin-shanker-2"  # SE1 S4, defence 3
CATAPULT = "orcs/orc-catapult"  # E1 W1, defence 4, ranged 4 over the 3x3 grid ahead
GENERAL = "orcs/gonke-longtooth"


def test_example_1_deathbringer_destroys_marauder_not_slugger():
    """Orc Deathbringer 5 > Marauder's 4 destroys it; its 3 is not > the Slugger's 3; it survives.

    Adapted: the printed Marauder points 1 at the Deathbringer. With the real cards that cannot happen (the
    Marauder's 1-arrow is E or W and no Deathbringer has an E or W arrow), so here the Marauder points 0 at it;
    the Deathbringer (defence 2) survives either way.
    """
    s = state([("D3", MARAUDER_1, "p2"), ("E3", SLUGGER, "p2")], hands={"p1": [DEATHBRINGER_2, GENERAL]})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_2, square="D4")
    assert events == (
        Placed(player="p1", card=DEATHBRINGER_2, square="D4", turn=1),
        Eliminated(
            round=1,
            units=(
                DestroyedUnit(square="D3", card=MARAUDER_1, owner="p2", damage=5, defence=4,
                              attackers=(Attacker(square="D4", card=DEATHBRINGER_2, owner="p1", kind="arrow",
                                                  direction="S", value=5),)),
            ),
            kills_to={"p1": 1},
        ),
    )


def test_example_2_ravager_and_shanker_together_destroy_marauder():
    """Ravager 5 + Shanker 4 = 9 > 4; the Marauder's 2 on the Ravager (defence 3) destroys nothing.

    Adapted: the printed Marauder also points 1 at the Shanker; with the real cards the Shanker's 4 (N or S) and the
    Marauder's 1 (E or W) cannot face each other, so the Shanker takes 0 here.
    """
    s = state([("D4", MARAUDER_2, "p2"), ("D5", SHANKER_2, "p1")], hands={"p1": [RAVAGER_1, GENERAL]})
    events = act(s, type="place", player="p1", card=RAVAGER_1, square="E3")
    assert events[1] == Eliminated(
        round=1,
        units=(
            DestroyedUnit(square="D4", card=MARAUDER_2, owner="p2", damage=9, defence=4, attackers=(
                Attacker(square="D5", card=SHANKER_2, owner="p1", kind="arrow", direction="S", value=4),
                Attacker(square="E3", card=RAVAGER_1, owner="p1", kind="arrow", direction="NW", value=5),
            )),
        ),
        kills_to={"p1": 1},
    )
    assert len(events) == 2  # the Ravager took 2 (not > 3) and stays


def test_example_3_catapult_support_shoots_slugger():
    """The Catapult, placed next to a friendly Shanker (support, §5.1a), shoots the Slugger: 4 > 3.
    The Shanker and the Slugger do not touch and do not fight."""
    s = state([("B2", SHANKER_1, "p1"), ("D4", SLUGGER, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    events = act(s, type="place", player="p1", card=CATAPULT, square="C2", shots=[{"shooter": "C2", "target": "D4"}])
    assert events == (
        Placed(player="p1", card=CATAPULT, square="C2", turn=1, basis="support"),
        Shot(player="p1", shooter_square="C2", shooter_card=CATAPULT, target_square="D4", target_card=SLUGGER, value=4),
        Eliminated(round=1, units=(
            DestroyedUnit(square="D4", card=SLUGGER, owner="p2", damage=4, defence=3, attackers=(
                Attacker(square="C2", card=CATAPULT, owner="p1", kind="shot", direction=None, value=4),)),
        ), kills_to={"p1": 1}),
    )


def test_example_4_deathbringer_melee_plus_catapult_shot():
    """Deathbringer's 3 in melee + the Catapult's shot of 4 = 7 > 4 destroy the Marauder, which does not point
    at the Deathbringer. (Before the shot the Marauder survives the 3: 3 is not > 4.)"""
    s = state([("C3", DEATHBRINGER_1, "p1"), ("D4", MARAUDER_2, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    events = act(s, type="place", player="p1", card=CATAPULT, square="C2", shots=[{"shooter": "C2", "target": "D4"}])
    eliminated = events[-1]
    assert isinstance(eliminated, Eliminated)
    (unit,) = eliminated.units
    assert (unit.square, unit.damage, unit.defence) == ("D4", 7, 4)
    assert [(a.square, a.kind, a.value) for a in unit.attackers] == [("C3", "arrow", 3), ("C2", "shot", 4)]
