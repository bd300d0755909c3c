"""Deploy (§5.1): the contact rule, its exceptions (a) (b) (c), and the illegal placements."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from events.lords_of_war import HandRevealed, Placed
from tests.engine.lords_of_war.given import act, play, state

RAVAGER_1 = "orcs/orc-ravager-1"  # N3 NE2 E1 NW5
GENERAL = "orcs/gonke-longtooth"  # N5 NE5 NW5, defence 6
SPIKEMAN_1 = "orcs/goblin-spikeman-1"  # spearman: NE1 E1 SE1
SLUGGER = "dwarves/dwarf-slugger-1"
MARAUDER_1 = "dwarves/dwarf-marauder-1"


def refused(s, code: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert info.value.code == code, info.value
    return info.value


def test_deploy_contact_rule_accepts_an_arrow_at_an_adjacent_enemy():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    placed = act(s, type="place", player="p1", card=GENERAL, square="C2")[0]
    assert placed == Placed(player="p1", card=GENERAL, square="C2", turn=1, basis="contact")


def test_deploy_contact_rule_refuses_a_card_pointing_at_no_enemy():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    error = refused(s, "contact", type="place", player="p1", card=RAVAGER_1, square="D4")  # the Slugger is SW
    assert error.rule == "contact"
    assert error.message == "Orc Ravager at D4 does not point at any adjacent enemy unit (contact rule, §5.1)"


def test_deploy_contact_rule_refuses_a_square_next_to_no_enemy():
    s = state([("C3", SLUGGER, "p2"), ("F1", SPIKEMAN_1, "p1")], hands={"p1": [RAVAGER_1, GENERAL]})
    error = refused(s, "contact", type="place", player="p1", card=RAVAGER_1, square="F2")
    assert "not adjacent to any enemy unit" in error.message


def test_deploy_support_unit_may_go_next_to_a_friendly_unit():  # §5.1 (a)
    s = state([("C3", SLUGGER, "p2"), ("F1", RAVAGER_1, "p1")], hands={"p1": [SPIKEMAN_1, GENERAL]})
    placed = act(s, type="place", player="p1", card=SPIKEMAN_1, square="G2")[0]
    assert placed.basis == "support"


def test_deploy_non_support_unit_may_not_go_only_next_to_a_friend():  # §5.1 (a) is for support units
    s = state([("C3", SLUGGER, "p2"), ("F1", SPIKEMAN_1, "p1")], hands={"p1": [RAVAGER_1, GENERAL]})
    refused(s, "contact", type="place", player="p1", card=RAVAGER_1, square="G2")


def test_deploy_without_enemy_on_mat_any_unit_goes_next_to_a_friend():  # §5.1 (b)
    s = state([("C3", SPIKEMAN_1, "p1")], hands={"p1": [RAVAGER_1, GENERAL]})
    placed = act(s, type="place", player="p1", card=RAVAGER_1, square="D4")[0]
    assert placed.basis == "no_enemy"
    refused(s, "contact", type="place", player="p1", card=RAVAGER_1, square="F6")


def test_deploy_on_an_empty_mat_anywhere():  # §5.1 (b)
    s = state([], hands={"p1": [RAVAGER_1, GENERAL]})
    placed = act(s, type="place", player="p1", card=RAVAGER_1, square="G6")[0]
    assert placed.basis == "empty_mat"


# §5.1 (c): p2's Shanker sits in the corner A6; p1's Sharpshooter blocks A5; p1's hand has no card with a W or
# NW arrow and no support unit, so nothing can be placed by the contact rule or (a)/(b).
FORCED_BOARD = [("A6", "orcs/goblin-shanker-2", "p2"), ("A5", "dwarves/dwarf-sharpshooter", "p1")]
FORCED_HAND = [
    "dwarves/dwarf-dowager-1", "dwarves/dwarf-dowager-2", "dwarves/dwarf-dowager-3",
    "dwarves/dwarf-slugger-1", "dwarves/dwarf-slugger-2", "dwarves/dwarf-marauder-1",
]


def forced_state():
    return state(FORCED_BOARD, hands={"p1": FORCED_HAND}, armies=("dwarves", "orcs"))


def test_deploy_forced_placement_next_to_an_enemy_reveals_the_hand():
    events = act(forced_state(), type="place", player="p1", card="dwarves/dwarf-dowager-1", square="B6")
    assert events[0] == HandRevealed(player="p1", cards=tuple(FORCED_HAND))
    assert events[1] == Placed(player="p1", card="dwarves/dwarf-dowager-1", square="B6", turn=1, forced=True,
                               basis="forced")


def test_deploy_forced_placement_must_touch_an_enemy():
    error = refused(forced_state(), "forced_placement", type="place", player="p1", card="dwarves/dwarf-dowager-1",
                    square="C3")
    assert "adjacent to an enemy unit" in error.message


def test_deploy_no_forced_placement_while_a_normal_one_exists():
    hand = FORCED_HAND[:5] + ["dwarves/krod-klouthammer"]  # the general has W and NW arrows
    s = state(FORCED_BOARD, hands={"p1": hand}, armies=("dwarves", "orcs"))
    refused(s, "contact", type="place", player="p1", card="dwarves/dwarf-dowager-1", square="B6")


def test_deploy_refuses_an_occupied_square():
    s = state([("C3", SLUGGER, "p2"), ("C1", SPIKEMAN_1, "p1")], hands={"p1": [RAVAGER_1, GENERAL]})
    error = refused(s, "occupied", type="place", player="p1", card=GENERAL, square="C3")
    assert "Dwarf Slugger" in error.message


def test_deploy_refuses_a_square_off_the_mat():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    refused(s, "off_mat", type="place", player="p1", card=GENERAL, square="H2")
    refused(s, "off_mat", type="place", player="p1", card=GENERAL, square="C7")
    refused(s, "malformed", type="place", player="p1", card=GENERAL, square="2,2")


def test_deploy_refuses_the_wrong_player():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    error = refused(s, "not_your_turn", type="place", player="p2", card=SLUGGER, square="C4")
    assert error.rule == "§5"
    refused(s, "unknown_player", type="place", player="p3", card=SLUGGER, square="C4")


def test_deploy_refuses_the_wrong_phase():
    s = play(state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]}),
             type="place", player="p1", card=GENERAL, square="C2")
    assert s.phase == "reinforce"
    error = refused(s, "wrong_phase", type="place", player="p1", card=RAVAGER_1, square="D2")
    assert "draw or recall" in error.message
    s2 = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    refused(s2, "wrong_phase", type="draw", player="p1")


def test_deploy_refuses_a_card_not_in_hand():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    error = refused(s, "not_in_hand", type="place", player="p1", card="orcs/orc-butcher", square="C2")
    assert "Orc Butcher" in error.message


def test_deploy_refuses_a_card_that_is_no_card():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    refused(s, "not_in_army", type="place", player="p1", card="orcs/no-such-orc", square="C2")


def test_deploy_refuses_any_action_after_the_game_ended():
    s = play(state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]}), type="concede", player="p2")
    assert s.phase == "over"
    refused(s, "game_over", type="place", player="p1", card=GENERAL, square="C2")
    refused(s, "game_over", type="concede", player="p1")


def test_deploy_refuses_malformed_actions():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    for bad in (
        {"type": "place", "player": "p1", "card": GENERAL},
        {"type": "place", "player": "p1", "card": GENERAL, "square": "C2", "extra": 1},
        {"type": "fly", "player": "p1"},
        {"type": "place", "player": "p1", "card": GENERAL, "square": "C2", "shots": [{"shooter": "C2"}]},
        ["place"],
    ):
        with pytest.raises(RuleError) as info:
            act(s, **bad) if isinstance(bad, dict) else act(s, **{"type": bad})
        assert info.value.code == "malformed"


def test_deploy_records_the_canonical_square_name():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [RAVAGER_1, GENERAL]})
    assert act(s, type="place", player="p1", card=GENERAL, square="c2")[0].square == "C2"
