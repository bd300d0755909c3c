"""Table mode (§11): a scorekeeper records a physical game; hands are unknown, copies per army are enforced."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.lords_of_war import fold, state_to_builtins
from events.lords_of_war import CardDrawn, HandRevealed, Placed
from tests.engine.lords_of_war.given import act, given, play, state, types

TABLE = {"mode": "table"}
SHANKER_1 = "orcs/goblin-shanker-1"  # one copy in the orc core deck
SLUGGER = "dwarves/dwarf-slugger-1"


def refused(s, code: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert info.value.code == code, info.value
    return info.value


def table(board=(("C3", SLUGGER, "p2"),), **kwargs):
    return state(list(board), variant=TABLE, **kwargs)


def test_table_mode_hands_are_unknown_and_sizes_tracked():
    s = fold(given(variant=TABLE))
    view = state_to_builtins(s)
    assert view["hands"]["p1"] == {"count": 6, "known": []}
    assert view["deck"] == {"p1": 30, "p2": 30}
    s = play(s, type="place", player="p1", card=SHANKER_1, square="C3")
    s = play(s, type="draw", player="p1")
    assert (s.hand_counts[0], s.deck_counts[0]) == (6, 29)


def test_table_mode_any_army_card_may_be_placed():
    assert types(act(table(), type="place", player="p1", card=SHANKER_1, square="C2")) == ["placed", "eliminated"]


def test_table_mode_refuses_a_card_not_in_the_army():
    error = refused(table(), "not_in_army", type="place", player="p1", card="dwarves/dwarf-slugger-2", square="C2")
    assert "not in p1's army" in error.message


def test_table_mode_refuses_more_copies_than_the_army_holds():
    s = table([("C3", SLUGGER, "p2"), ("A1", SHANKER_1, "p1")])
    error = refused(s, "copies_exceeded", type="place", player="p1", card=SHANKER_1, square="C2")
    assert error.rule == "§11"


def test_table_mode_draws_may_name_the_card_or_not():
    s = play(table(), type="place", player="p1", card="orcs/goblin-shanker-2", square="B4")
    assert act(s, type="draw", player="p1") == (CardDrawn(player="p1", card=None),)
    known = play(s, type="draw", player="p1", card="orcs/orc-butcher")
    assert known.hands[0] == ("orcs/orc-butcher",)
    s2 = table([("C3", SLUGGER, "p2"), ("A1", SHANKER_1, "p1")])
    s2 = play(s2, type="place", player="p1", card="orcs/goblin-shanker-2", square="B4")
    refused(s2, "copies_exceeded", type="draw", player="p1", card=SHANKER_1)


FORCED_BOARD = [("A6", "orcs/goblin-shanker-2", "p2"), ("A5", "dwarves/dwarf-sharpshooter", "p1")]
FORCED_HAND = ["dwarves/dwarf-dowager-1", "dwarves/dwarf-dowager-2", "dwarves/dwarf-dowager-3",
               "dwarves/dwarf-slugger-1", "dwarves/dwarf-slugger-2", "dwarves/dwarf-marauder-1"]


def test_table_mode_forced_placement_takes_the_revealed_hand_as_data():
    s = state(FORCED_BOARD, armies=("dwarves", "orcs"), variant=TABLE)
    place = {"type": "place", "player": "p1", "card": "dwarves/dwarf-dowager-1", "square": "B6"}
    refused(s, "contact", **place)  # without the reveal it is just a contact-rule violation
    events = act(s, **place, reveal=FORCED_HAND)
    assert events[:2] == (HandRevealed(player="p1", cards=tuple(FORCED_HAND)),
                          Placed(player="p1", card="dwarves/dwarf-dowager-1", square="B6", turn=1, forced=True,
                                 basis="forced"))
    after = fold(events, s)
    assert sorted(after.hands[0]) == sorted(FORCED_HAND[1:])  # the rest of the hand is now known
    refused(s, "reveal_mismatch", **place, reveal=FORCED_HAND[:5])
    with_general = FORCED_HAND[:5] + ["dwarves/krod-klouthammer"]
    refused(s, "contact", **place, reveal=with_general)  # the general could have been placed normally
