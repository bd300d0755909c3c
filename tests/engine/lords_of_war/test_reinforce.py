"""Reinforce (§5.3): draw the top card, or recall a unit that is not engaged, not just placed, not involved."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from events.lords_of_war import CardDrawn, Recalled
from tests.engine.lords_of_war.given import act, fold, given, play, state, types

GENERAL = "orcs/gonke-longtooth"
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1
SHANKER_2 = "orcs/goblin-shanker-2"  # SE1 S4
SPIKEMAN_1 = "orcs/goblin-spikeman-1"  # NE1 E1 SE1
CATAPULT = "orcs/orc-catapult"
SLUGGER = "dwarves/dwarf-slugger-1"  # N3 (board south for p2)
GORDONA = "dwarves/gordona-ironhelm"


def refused(s, code: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert info.value.code == code, info.value
    return info.value


def after_placing(board, card=SPIKEMAN_1, square="A1", **kwargs):
    s = state(board, hands={"p1": [card, GENERAL, SHANKER_2]}, **kwargs)
    return play(s, type="place", player="p1", card=card, square=square)


def test_reinforce_draw_takes_the_top_card_of_the_deck():
    s = after_placing([("B2", SHANKER_1, "p1"), ("F6", GORDONA, "p2")])
    top = s.decks[0][0]
    assert act(s, type="draw", player="p1") == (CardDrawn(player="p1", card=top),)
    after = play(s, type="draw", player="p1")
    assert top in after.hands[0] and after.deck_counts[0] == s.deck_counts[0] - 1 == len(after.decks[0])
    assert (after.active, after.turn) == (1, 2)
    for guess in (top, s.decks[0][1], GENERAL):  # a named draw in sealed mode: refused whatever the card (R14 ruling)
        refused(s, "hidden_card", type="draw", player="p1", card=guess)


def test_reinforce_recall_returns_a_free_unit_to_the_hand():
    s = after_placing([("B2", SHANKER_1, "p1"), ("F6", GORDONA, "p2")])
    assert act(s, type="recall", player="p1", square="B2") == (Recalled(player="p1", square="B2", card=SHANKER_1),)
    after = play(s, type="recall", player="p1", square="B2")
    assert SHANKER_1 in after.hands[0] and after.hand_counts[0] == 3 and len(after.board) == 2


def test_reinforce_recall_refuses_an_engaged_unit():
    # the Slugger on B3 points (board) south at the Shanker on B2
    s2 = state([("B2", SHANKER_2, "p1"), ("B3", SLUGGER, "p2")], hands={"p1": [SPIKEMAN_1, GENERAL]})
    s2 = play(s2, type="place", player="p1", card=SPIKEMAN_1, square="A1")
    error = refused(s2, "recall_engaged", type="recall", player="p1", square="B2")
    assert error.rule == "§5.3" and "engaged" in error.message


def test_reinforce_recall_refuses_the_unit_placed_this_turn():
    s = after_placing([("B2", SHANKER_1, "p1"), ("F6", GORDONA, "p2")])
    refused(s, "recall_just_placed", type="recall", player="p1", square="A1")


def test_reinforce_involvement_ends_with_the_turn():
    s = state([("B2", SHANKER_1, "p1"), ("D4", SLUGGER, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    s = play(s, type="place", player="p1", card=CATAPULT, square="C2", shots=[{"shooter": "C2", "target": "D4"}])
    assert s.kills == (1, 0) and s.involved
    s = play(s, type="draw", player="p1")  # the turn ends; involvement is cleared for the next one
    assert not s.involved


def test_reinforce_recall_refuses_a_shooter_involved_this_turn():
    # the Catapult on C1 (placed earlier) shoots the Slugger on D4: the shooter is involved, the Shanker on B1 not
    s = state([("C1", CATAPULT, "p1"), ("B1", SHANKER_1, "p1"), ("D4", SLUGGER, "p2")],
              hands={"p1": [SPIKEMAN_1, GENERAL]})
    s = play(s, type="place", player="p1", card=SPIKEMAN_1, square="A1", shots=[{"shooter": "C1", "target": "D4"}])
    assert s.kills == (1, 0)
    error = refused(s, "recall_involved", type="recall", player="p1", square="C1")
    assert "involved in a kill" in error.message
    assert types(act(s, type="recall", player="p1", square="B1")) == ["recalled"]


def test_reinforce_recall_refuses_an_empty_square_and_enemy_units():
    s = after_placing([("B2", SHANKER_1, "p1"), ("F6", GORDONA, "p2")])
    refused(s, "no_unit", type="recall", player="p1", square="D4")
    refused(s, "not_your_unit", type="recall", player="p1", square="F6")
    refused(s, "off_mat", type="recall", player="p1", square="A9")


def test_reinforce_no_recall_in_the_challenge():
    s = fold(given())
    s = play(s, type="place", player="p1", card=s.hands[0][0], square="C3")
    refused(s, "challenge_draw", type="recall", player="p1", square="C3")
