"""§11 table mode for three to six players (§10): a scorekeeper records a physical team game.

Hands are unknown, and copies are counted per *army* (a seat's own; the three-player team's shared one), wherever
its cards have gone since: on the mat under any seat, destroyed into the enemy team's kill pile, recalled into a
team-mate's hand. Unbounded squares (``x,y``) for team games: p1, p3, p5 face N = y + 1, p2, p4, p6 N = y - 1.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.errors import RuleError
from engine.lords_of_war import state_to_builtins
from engine.lords_of_war.actions import parse_action
from engine.lords_of_war.rules import decide, hand_candidates
from engine.lords_of_war.seating import layout_of
from engine.lords_of_war.state import State, fold
from events.lords_of_war import Eliminated, HandDealt, HandRevealed, Placed, Recalled, ReinforceSkipped
from tests.engine.lords_of_war.teams_given import given, state

TABLE = {"mode": "table"}
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1, defence 3; one copy in the orc core deck
SHANKER_2 = "orcs/goblin-shanker-2"  # defence 3
CATAPULT = "orcs/orc-catapult"  # support, E1 W1, defence 4
SLUGGER = "dwarves/dwarf-slugger-1"  # N3, defence 3
SLUGGER_2 = "dwarves/dwarf-slugger-2"  # E3, defence 3; one copy in the dwarf core deck
SHARPSHOOTER = "dwarves/dwarf-sharpshooter"  # no arrows, defence 4
KROD = "dwarves/krod-klouthammer"  # the dwarf general: N5 W3 NW4, defence 7
GONKE = "orcs/gonke-longtooth"  # the orc general: N5 NE5 NW5, defence 6
FORCED_HAND = ("dwarves/dwarf-dowager-1", "dwarves/dwarf-dowager-2", SLUGGER)  # no normal placement below


def act(s: State, **action):
    return decide(s, parse_action(action))


def play(s: State, **action) -> State:
    return fold(act(s, **action), s)


def refused(s: State, code: str, rule: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert (info.value.code, info.value.rule) == (code, rule), info.value
    return info.value


def table_given(seats: int, board, hands) -> list:
    """A table game's opening events at a position, ``hands`` naming the cards known of those seats' hands."""
    return given(seats, board, variant=TABLE, hands=hands)


def to_deploy(s: State, seat: int) -> State:
    """The same position with ``seat`` to deploy (the turn order itself is §10's test, not this file's)."""
    return replace(s, phase="deploy", active=seat, slot=s.layout.order.index(seat), placed_square=None)


def to_reinforce(s: State, seat: int) -> State:
    return replace(to_deploy(s, seat), phase="reinforce")


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_s11_table_mode_records_games_of_three_to_six_players(seats):
    s = state(seats, variant=TABLE)
    layout = layout_of(seats)
    assert s.table and s.hand_counts == layout.hand_size
    view = state_to_builtins(s)
    assert all(view["hands"][f"p{i + 1}"] == {"count": layout.hand_size[i], "known": []} for i in range(seats))
    if seats == 3:  # the solo deck; the team's one deck without the general lying between them (R15)
        assert s.middle == (KROD,) and view["deck"] == {"p1": 36 - 7, "p2": 36 - 1 - 6, "p3": 36 - 1 - 6}
    else:
        assert view["deck"] == {f"p{i + 1}": 30 for i in range(seats)}


def test_s11_copies_are_counted_per_seat_army_not_per_team():
    # p1 and p3 both play the orc core deck: each army has its own one Goblin Shanker 1
    s = state(4, [("0,0", SHANKER_1, "p1"), ("5,5", SLUGGER, "p2")], to_move="p3", variant=TABLE)
    events = act(s, type="place", player="p3", card=SHANKER_1, square="5,4")  # N4 > 3 at 5,5
    assert isinstance(events[0], Placed) and isinstance(events[1], Eliminated)
    error = refused(to_deploy(s, 0), "copies_exceeded", "§11", type="place", player="p1", card=SHANKER_1,
                    square="5,4")
    assert "p1's army holds 1 Goblin Shanker" in error.message


def test_s11_a_destroyed_card_still_counts_for_the_army_it_came_from():
    s = state(4, [("0,0", SHANKER_1, "p1"), ("9,9", SLUGGER, "p2")], to_move="p2", variant=TABLE)
    s = play(s, type="place", player="p2", card=KROD, square="0,1")  # N5 > 3 at 0,0 (p2 faces y - 1)
    assert s.piles[1] == (SHANKER_1,)  # in the even team's kill pile
    s = play(s, type="draw", player="p2")
    assert s.active == 2  # p3's own copy is still in p3's army
    assert isinstance(act(s, type="place", player="p3", card=SHANKER_1, square="9,8")[0], Placed)
    refused(to_deploy(s, 0), "copies_exceeded", "§11", type="place", player="p1", card=SHANKER_1, square="9,8")


def test_s11_a_recalled_team_mates_card_is_known_in_the_recalling_hand_and_still_its_armys():
    board = [("1,1", SHANKER_1, "p3"), ("8,5", SHARPSHOOTER, "p2")]
    s = to_reinforce(state(4, board, variant=TABLE), 0)
    assert act(s, type="recall", player="p1", square="1,1")[0] == Recalled(player="p1", square="1,1", card=SHANKER_1)
    s = play(s, type="recall", player="p1", square="1,1")
    assert s.hands[0] == (SHANKER_1,) and s.hand_counts[0] == 7
    # p3's only copy is in p1's hand now: p3 cannot place another
    refused(to_deploy(s, 2), "copies_exceeded", "§11", type="place", player="p3", card=SHANKER_1, square="8,4")
    # p1 places the known one (p3's), then its own army's, and no third
    s = play(to_deploy(s, 0), type="place", player="p1", card=SHANKER_1, square="8,4")  # N4 at 8,5: in contact
    assert s.hands[0] == () and s.hand_counts[0] == 6
    s = play(to_deploy(s, 0), type="place", player="p1", card=SHANKER_1, square="7,4")  # NE1 at 8,5
    refused(to_deploy(s, 0), "copies_exceeded", "§11", type="place", player="p1", card=SHANKER_1, square="9,4")


def test_s11_a_revealed_team_mates_card_is_not_charged_to_the_revealing_players_army():
    # p1's own Shanker 1 is on the mat; p1 recalls p3's and, with it as the whole hand, must place by force: the
    # enemy slugger's free neighbours are squares the shanker (N, NE) cannot point from
    board = [("0,0", SHANKER_1, "p1"), ("20,20", SHANKER_1, "p3"), ("5,5", SLUGGER, "p2"),
             ("5,4", CATAPULT, "p1"), ("4,4", CATAPULT, "p1")]
    s = fold(table_given(4, board, {"p1": []}))
    s = play(to_reinforce(s, 0), type="recall", player="p1", square="20,20")
    assert s.hands[0] == (SHANKER_1,) and s.hand_counts[0] == 1
    s = to_deploy(s, 0)
    place = {"type": "place", "player": "p1", "card": SHANKER_1, "square": "6,5"}
    refused(s, "contact", "contact", **place)
    events = act(s, **place, reveal=[SHANKER_1])
    assert events[:2] == (HandRevealed(player="p1", cards=(SHANKER_1,)),
                          Placed(player="p1", card=SHANKER_1, square="6,5", turn=2, forced=True, basis="forced"))


def test_s11_three_players_the_team_counts_copies_over_both_hands():
    board = [("D4", SHANKER_2, "p1"), ("F4", "orcs/goblin-shanker-3", "p1")]
    s = state(3, board, to_move="p2", variant=TABLE)
    assert isinstance(act(s, type="place", player="p2", card=SLUGGER_2, square="E4")[0], Placed)  # E3 at D4
    s = play(s, type="place", player="p2", card=SLUGGER_2, square="E4")
    error = refused(to_deploy(s, 2), "copies_exceeded", "§11", type="place", player="p3", card=SLUGGER_2,
                    square="G4")
    assert "p3's army holds 1 Dwarf Slugger" in error.message
    refused(to_deploy(s, 0), "not_in_army", "§11", type="place", player="p1", card=SLUGGER_2, square="G4")


def test_s11_three_players_the_general_between_the_team_players_is_known():
    s = state(3, [("D4", SHANKER_2, "p1")], to_move="p3", variant=TABLE)
    assert KROD in hand_candidates(s, 2) and KROD not in hand_candidates(to_deploy(s, 0), 0)
    events = act(s, type="place", player="p3", card=KROD, square="D5")  # from between them: no draw (R15)
    assert events[-1] == ReinforceSkipped(player="p3", reason="general_deployed")
    after = fold(events, s)
    assert after.middle == () and after.hand_counts[2] == 3
    refused(to_deploy(s, 0), "not_in_army", "§11", type="place", player="p1", card=KROD, square="D5")
    # on the mat and recalled by p2: known in p2's hand, so p3 cannot place a general from an unknown hand
    s = to_reinforce(state(3, [("A1", KROD, "p3"), ("G4", SHANKER_2, "p1")], variant=TABLE), 1)
    s = play(s, type="recall", player="p2", square="A1")
    assert s.hands[1] == (KROD,) and s.middle == ()
    refused(to_deploy(s, 2), "copies_exceeded", "§11", type="place", player="p3", card=KROD, square="G5")
    assert isinstance(act(to_deploy(s, 1), type="place", player="p2", card=KROD, square="G5")[0], Placed)


def test_s11_a_team_players_forced_placement_reveals_its_own_hand():
    # the team faces as p2 (down the mat); p1's shanker on G1, p2's sharpshooter on G2: the three dwarf cards
    # revealed have no normal placement (the two-player forced test, turned round)
    board = [("G1", SHANKER_2, "p1"), ("G2", SHARPSHOOTER, "p2"), ("A6", KROD, "p3")]
    opening = table_given(3, board, {"p2": list(FORCED_HAND[:2])})  # p2's two known cards: p3 holds 3 unknown
    s = to_deploy(fold(opening), 2)
    assert s.hand_counts[1:] == (2, 3)
    place = {"type": "place", "player": "p3", "card": FORCED_HAND[0], "square": "F1"}
    refused(s, "contact", "contact", **place)
    refused(s, "reveal_mismatch", "§5.1c", **place, reveal=list(FORCED_HAND[:2]))  # p3 holds 3, not 2
    events = act(s, **place, reveal=list(FORCED_HAND))
    assert events[:2] == (HandRevealed(player="p3", cards=FORCED_HAND),
                          Placed(player="p3", card=FORCED_HAND[0], square="F1", turn=1, forced=True, basis="forced"))
    assert fold(events, s).hands[2] == FORCED_HAND[1:]
    # with the general lying between the team players it could be placed normally (F2, pointing NW at G1)
    middle = to_deploy(fold(table_given(3, board[:2], {})), 2)
    assert middle.middle == (KROD,)
    refused(middle, "contact", "contact", **place, reveal=list(FORCED_HAND))


def test_s11_a_table_hand_dealt_names_no_card():
    events = table_given(6, None, {})
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert [(e.cards, e.count) for e in dealt] == [(None, 6)] * 6


def test_s11_three_players_a_solo_general_of_the_teams_faction_is_the_solo_players_own():
    # all three play orcs: the solo player's Gonke comes from its unknown hand, the team's stays between them
    s = state(3, [("D5", SHANKER_2, "p2")], armies=("orcs", "orcs", "orcs"), variant=TABLE)
    assert s.middle == (GONKE,)
    after = play(s, type="place", player="p1", card=GONKE, square="D4")  # N5 > 3 at D5
    assert after.middle == (GONKE,) and after.hand_counts[0] == 6 and after.phase == "reinforce"
    refused(to_deploy(after, 0), "copies_exceeded", "§11", type="place", player="p1", card=GONKE, square="C4")
    assert isinstance(act(to_deploy(after, 1), type="place", player="p2", card=GONKE, square="D5")[0], Placed)
