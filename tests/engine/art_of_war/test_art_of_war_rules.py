"""Every rule and ruling of the Art of War digest (shared rules/art-of-war.md, docs/art-of-war.md) with a named test,
and illegal actions refused with their rule. Positions set each rule up in a few actions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.art_of_war import SYSTEM
from engine.art_of_war.catalogue import CARDS, reaches
from engine.art_of_war.rules import attack_value
from engine.errors import RuleError, SetupError
from events.art_of_war import Damaged, GameEnded
from replay.art_of_war.explain import text
from replay.art_of_war.views import redacted_event, state_view


class Game:
    def __init__(self, setup: dict[str, Any]) -> None:
        self.events = list(SYSTEM.start(setup))
        self.state = SYSTEM.fold(self.events)

    def play(self, *actions: dict[str, Any]) -> Game:
        for action in actions:
            produced = SYSTEM.decide(self.state, SYSTEM.parse_action(action))
            self.events += produced
            self.state = SYSTEM.fold(produced, self.state)
        return self

    def refused(self, action: dict[str, Any]) -> RuleError:
        before = self.state
        with pytest.raises(RuleError) as error:
            SYSTEM.decide(self.state, SYSTEM.parse_action(action))
        assert self.state == before
        return error.value

    def unit(self, seat: str, square: str) -> Any:
        return self.state.player(seat).unit_at(square)


def player(seat: str, **spec: Any) -> dict[str, Any]:
    """A position's player: the KING goes to its hand unless the spec places it (its cards are numbered in the
    order field, standby, kingdom, graveyard, hand, deck: R7, docs/art-of-war.md "Position format")."""
    king = "iron-king" if seat == "p1" else "bow-king"
    out: dict[str, Any] = {"player": seat, "hand": ["soldier", "archer"], "deck": ["priest", "wizard"],
                           "field": [{"square": "B1", "card": "guardian"}]}
    out.update(spec)
    placed = list(out["hand"]) + [u["card"] for u in out["field"]] + [c for k in ("standby", "kingdom", "graveyard",
                                                                                  "deck") for c in out.get(k, [])]
    if king not in placed:
        out["hand"] = [king, *out["hand"]]
    return out


def given(p1: dict[str, Any] | None = None, p2: dict[str, Any] | None = None, active: str = "p1") -> Game:
    return Game({"system": "art-of-war", "variant": {"mode": "table"}, "first": "p1",
                 "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "longbow"}],
                 "position": {"active": active, "turn": 3, "players": [player("p1", **(p1 or {})),
                                                                        player("p2", **(p2 or {}))]}})


def act(seat: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "player": seat, **fields}


def damaged(game: Game) -> list[Damaged]:
    return [e for e in game.events if isinstance(e, Damaged)]


# -- §1 ranges, R1 ---------------------------------------------------------------------------------------------------


def test_r1_archer_reaches_the_forward_knight_squares_and_priest_the_forward_diagonals():
    archer, priest, wizard = CARDS["archer"], CARDS["priest"], CARDS["wizard"]
    # p1's B1 is (1, 1); p2's front row is y 2, its back row y 3; columns are shared
    assert reaches(0, archer, "B1", "A2") and reaches(0, archer, "B1", "C2")  # (-1, 2), (1, 2)
    assert not reaches(0, archer, "B1", "B1") and not reaches(0, archer, "B1", "A1")
    assert reaches(0, archer, "A2", "B1") and not reaches(0, archer, "A2", "C1")  # from (0, 0): (1, 2) only
    assert reaches(0, priest, "B1", "A1") and reaches(0, priest, "B1", "C1") and not reaches(0, priest, "B1", "B1")
    assert reaches(0, wizard, "B1", "B1") and reaches(0, wizard, "B1", "B2")  # the whole column ahead
    assert reaches(1, archer, "B1", "A2") and reaches(1, CARDS["soldier"], "C1", "C1")  # p2 mirrored (dy -> -dy)


def test_s1_an_attack_out_of_range_is_refused():
    game = given(p1={"field": [{"square": "A1", "card": "soldier"}]}).play(act("p1", "battle"))
    error = game.refused(act("p1", "attack", square="A1", target="B1"))
    assert (error.code, error.rule) == ("out_of_range", "§1")


# -- §3 setup --------------------------------------------------------------------------------------------------------


def sealed(**extra: Any) -> dict[str, Any]:
    return {"system": "art-of-war", "variant": {"mode": "sealed"}, "seed": 8, "first": "p2",
            "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "temple"}], **extra}


def test_s3_each_draws_three_then_the_first_player_decides_on_a_redraw_first():
    game = Game(sealed())
    assert [len(p.hand) for p in game.state.players] == [3, 3] and game.state.phase == "redraw"
    assert SYSTEM.to_act(game.state) == ("p2",)  # §3.2: the recorded first player
    error = game.refused(act("p1", "redraw", again=False))
    assert error.code == "not_your_turn" and error.rule == "§3.3"


def test_s3_3_the_redraw_is_once_each_and_hidden_then_the_kings_join_the_hands():
    game = Game(sealed())
    before = game.state.player("p2").hand
    game.play(act("p2", "redraw", again=True))
    decided = game.events[-1]
    assert redacted_event(decided, "p1").again is None and redacted_event(decided, "p1").hand is None
    assert redacted_event(decided, "p2").again is True and len(game.state.player("p2").hand) == 3
    assert state_view(game.state, "p1")["players"][1]["redraw"] == "decided"
    assert sorted(game.state.player("p2").hand + game.state.player("p2").deck) == sorted(
        before + Game(sealed()).state.player("p2").deck)
    game.play(act("p1", "redraw", again=False))
    assert game.state.phase == "deploy"
    assert all(p.king in p.hand and len(p.hand) == 4 for p in game.state.players)


def test_s3_4_opening_deployment_a_card_on_the_field_one_to_standby_the_top_card_to_the_kingdom():
    game = Game(sealed()).play(act("p2", "redraw", again=False), act("p1", "redraw", again=False))
    hand = [c for c in game.state.player("p2").hand if "king" not in c]
    game.play(act("p2", "deploy", card=hand[0], square="B2", standby=hand[1]))
    p2 = game.state.player("p2")
    assert p2.unit_at("B1") is not None and p2.unit_at("B2") is None  # §2: forced forward at once
    assert p2.standby == (hand[1],) and len(p2.kingdom) == 1 and len(p2.deck) == 16
    assert SYSTEM.to_act(game.state) == ("p1",)


def test_s1_a_deck_is_a_king_and_twenty_basic_cards():
    with pytest.raises(SetupError) as error:
        SYSTEM.start({**sealed(), "players": [{"id": "p1", "army": {"king": "iron-king", "cards": ["soldier"] * 19}},
                                              {"id": "p2", "army": "temple"}]})
    assert error.value.rule == "§1"


# -- §4 the turn -----------------------------------------------------------------------------------------------------


def test_s4_3_exactly_one_arrange_action_or_the_battle():
    game = given(p1={"standby": ["soldier"]})
    game.play(act("p1", "place", square="A1"))
    error = game.refused(act("p1", "shift", square="A1", to="C1"))
    assert (error.code, error.rule) == ("one_arrange", "§4.3")
    assert game.refused(act("p1", "battle")).code == "one_arrange"


def test_s4_3_a_rotation_and_a_hand_card_played_only_with_an_empty_standby():
    game = given(p1={"standby": ["wizard"]})
    error = game.refused(act("p1", "play", card="p1.soldier.1", square="A1"))
    assert error.code == "standby_not_empty"
    game.play(act("p1", "rotate", square="B1"))
    p1 = game.state.player("p1")
    assert p1.unit_at("B1").card == "p1.wizard.1" and p1.standby == ("p1.guardian.1",)


def test_s4_entry_puts_one_basic_unit_a_turn_into_the_kingdom():
    game = given(p1={"hand": ["iron-king", "soldier", "archer", "priest"]})
    assert game.refused(act("p1", "entry", card="p1.iron-king.1")).code == "not_basic"
    game.play(act("p1", "entry", card="p1.soldier.1"))
    assert game.state.player("p1").kingdom == ("p1.soldier.1",)
    error = game.refused(act("p1", "entry", card="p1.archer.1"))
    assert (error.code, error.rule) == ("one_entry", "§4")


def test_s4_rear_support_goes_to_the_back_of_the_standby_and_not_when_it_holds_five():
    game = given(p1={"standby": ["soldier"] * 5, "hand": ["iron-king", "soldier"]})
    error = game.refused(act("p1", "support", card="soldier", effect="soldier"))  # a hand card by its type
    assert (error.code, error.rule) == ("standby_full", "§4")
    game = given(p1={"hand": ["iron-king", "soldier", "soldier"]})
    game.play(act("p1", "support", card="p1.soldier.1", effect="soldier"), act("p2", "pass"))
    assert game.state.player("p1").standby == ("p1.soldier.1",) and game.state.supports == 1


def test_s5_soldier_attacks_for_the_hand_size_when_declared_plus_soldier_supports():
    game = given(p1={"hand": ["iron-king", "soldier", "soldier", "archer"], "field": [{"square": "B1",
                                                                                       "card": "soldier"}]})
    game.play(act("p1", "support", card="p1.soldier.2", effect="soldier"), act("p2", "pass"), act("p1", "battle"))
    assert attack_value(game.state, "p1", "p1.soldier.1") == 3 + 1  # three cards in hand now, one support


# -- §5 damage and capture, R2 ---------------------------------------------------------------------------------------


def test_r2_a_single_instance_equal_to_the_defence_captures_the_issue_example():
    game = given(p1={"field": [{"square": "B2", "card": "archer"}, {"square": "B1", "card": "soldier"}]},
                 p2={"field": [{"square": "A1", "card": "guardian", "upright": False}, {"square": "C1",
                                                                                       "card": "soldier"}]})
    game.play(act("p1", "support", card="soldier", effect="soldier"), act("p2", "pass"),  # archer 1 + 1
              act("p1", "battle"), act("p1", "attack", square="B2", target="A1"), act("p2", "pass"))
    hit = damaged(game)[-1]
    assert (hit.value, hit.defence, hit.result) == (2, 2, "captured")
    assert text(game.state, hit) == "ARCHER at B2 deals 2 to GUARDIAN (defence 3, sideways 2): captured"
    assert "p2.guardian.1" in game.state.player("p1").kingdom


def test_r2_a_single_instance_above_the_defence_destroys():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "archer", "upright": False}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert damaged(game)[-1].result == "destroyed" and "p2.archer.1" in game.state.player("p2").graveyard


def test_r2_accumulated_instances_reaching_the_defence_destroy_and_damage_clears_at_the_turns_end():
    game = given(p1={"hand": ["iron-king", "archer"], "field": [{"square": "A1", "card": "soldier"},
                                                                {"square": "C1", "card": "archer"}]},
                 p2={"field": [{"square": "A1", "card": "guardian"}, {"square": "C1", "card": "priest"}]})
    game.play(act("p1", "support", card="archer", effect="archer", target="A1"), act("p2", "pass"))
    first = damaged(game)[-1]
    assert (first.value, first.result, first.total) == (1, "damaged", 1)  # an archer support is an instance
    game.play(act("p1", "battle"), act("p1", "attack", square="A1", target="A1"), act("p2", "pass"))
    # the soldier: 1 card in hand = 1; 1 + 1 = 2 < 3: still standing, two instances
    assert damaged(game)[-1].result == "damaged" and game.unit("p2", "A1").damage == 2
    game.play(act("p1", "end"))
    assert game.unit("p2", "A1").damage == 0


def test_s5_an_attacking_unit_turns_sideways_and_defends_with_its_sideways_value():
    game = given(p1={"field": [{"square": "B1", "card": "guardian"}]}, p2={"field": [{"square": "B1",
                                                                                     "card": "wizard"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert game.unit("p1", "B1").upright is False
    error = game.refused(act("p1", "attack", square="B1", target="B1"))
    assert error.code in ("attacked", "no_target")


# -- R3 answers ------------------------------------------------------------------------------------------------------


def test_r3_a_guardian_cancels_an_attack_in_the_opponents_turn():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"hand": ["bow-king", "guardian"], "field": [{"square": "B1", "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"))
    assert SYSTEM.to_act(game.state) == ("p2",)
    game.play(act("p2", "support", card="p2.guardian.1", effect="guardian"), act("p1", "pass"))
    assert not damaged(game) and game.unit("p2", "B1") is not None
    assert game.state.player("p2").standby == ("p2.guardian.1",)


def test_r3_a_wizard_negates_the_guardian_and_a_second_wizard_negates_the_negation():
    base = {"field": [{"square": "B1", "card": "iron-king"}], "hand": ["iron-king", "wizard"]}
    game = given(p1={**base, "hand": ["wizard"], "field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"hand": ["bow-king", "guardian", "wizard"], "field": [{"square": "B1", "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"),
              act("p2", "support", card="p2.guardian.1", effect="guardian"),
              act("p1", "support", card="p1.wizard.1", effect="wizard"))
    game.play(act("p2", "pass"))
    assert damaged(game) and damaged(game)[-1].result == "captured"  # the guardian was negated: the attack hit
    game = given(p1={"hand": ["wizard"], "field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"hand": ["bow-king", "guardian", "wizard"], "field": [{"square": "B1", "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"),
              act("p2", "support", card="p2.guardian.1", effect="guardian"),
              act("p1", "support", card="p1.wizard.1", effect="wizard"),
              act("p2", "support", card="p2.wizard.1", effect="wizard"), act("p1", "pass"))
    assert not damaged(game)  # the negation negated: the guardian's cancel stands


def test_r3_an_answer_at_a_moment_the_rules_do_not_allow_is_refused():
    game = given(p1={"hand": ["iron-king", "guardian", "wizard"]})
    error = game.refused(act("p1", "support", card="guardian", effect="guardian"))
    assert error.code == "support_timing"  # a guardian answers an attack in the opponent's turn
    assert game.refused(act("p1", "support", card="p1.wizard.1", effect="wizard")).code == "support_timing"
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]}, p2={"hand": ["bow-king", "wizard"]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"))
    error = game.refused(act("p2", "support", card="p2.wizard.1", effect="wizard"))
    assert (error.code, error.rule) == ("support_timing", "R3")  # nothing to negate: an attack is no support
    error = game.refused(act("p1", "end"))
    assert error.code == "not_your_turn"


# -- §2 forced moves, §6 conscription --------------------------------------------------------------------------------


def test_s2_a_back_row_unit_with_no_unit_in_front_moves_forward_at_once():
    game = given(p2={"field": [{"square": "B1", "card": "soldier"}, {"square": "B2", "card": "wizard"}]},
                 p1={"field": [{"square": "B1", "card": "iron-king"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert game.unit("p2", "B1").card == "p2.wizard.1" and game.unit("p2", "B2") is None


def test_s6_an_empty_battlefield_conscripts_the_standby_then_the_kingdom():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "archer"}], "standby": ["wizard"], "kingdom": ["priest"]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert game.state.conscript == "p2" and SYSTEM.to_act(game.state) == ("p2",)
    error = game.refused(act("p2", "conscript", square="A1", card="p2.priest.1"))
    assert error.code == "standby_first" and error.rule == "§6"
    game.play(act("p2", "conscript", square="A1"), act("p2", "conscript", square="C1", card="p2.priest.1"))
    assert game.state.conscript is None and game.state.player("p2").kingdom == ()


def test_s7_4_annihilation_when_two_cards_cannot_be_conscripted():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "archer"}], "standby": ["wizard"]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert (game.state.winner, game.state.end_reason) == ("p1", "annihilation")


# -- §7 victory, R4 --------------------------------------------------------------------------------------------------


def test_s7_1_execution_when_the_opposing_king_is_destroyed_or_captured():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"hand": ["soldier"], "field": [{"square": "B1", "card": "bow-king", "upright": False},
                                                    {"square": "A1", "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert (game.state.winner, game.state.end_reason) == ("p1", "execution")


def test_s7_2_nation_building_more_cards_in_four_of_the_five_types():
    game = given(p1={"hand": ["iron-king", "wizard"], "kingdom": ["soldier", "archer", "priest"]},
                 p2={"kingdom": ["wizard"]})
    game.play(act("p1", "entry", card="p1.wizard.1"))
    assert game.state.end_reason is None  # 3 types ahead, wizards tied
    game = given(p1={"hand": ["iron-king", "guardian"], "kingdom": ["soldier", "archer", "priest"]})
    game.play(act("p1", "entry", card="guardian"))
    ended = game.events[-1]
    assert isinstance(ended, GameEnded) and (ended.winner, ended.reason) == ("p1", "nation_building")


def test_s7_3_the_end_of_war_counts_kingdoms_then_graveyards_else_the_only_draw():
    for p1, p2, winner in (({"kingdom": ["soldier"]}, {}, "p1"), ({"graveyard": ["soldier"]}, {}, "p2"),
                           ({}, {}, None)):
        game = given(p1={**p1, "deck": []}, p2={**p2, "deck": []})
        game.play(act("p1", "end"))
        assert (game.state.winner, game.state.end_reason) == (winner, "end_of_war")


def test_table_mode_a_card_not_left_in_the_deck_is_refused():
    game = Game({"system": "art-of-war", "variant": {"mode": "table"},
                 "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "longbow"}]})
    assert SYSTEM.to_act(game.state) == ("p1",)
    error = game.refused(act("p1", "draw", card="dragon"))
    assert error.code == "not_in_deck"


# -- §9 the rulings after the first audit: R5-R7 (the HTTP tests: tests/api/art_of_war/test_art_of_war_rulings.py) --


def test_r5_an_attack_of_0_deals_no_damage_and_is_no_instance():
    game = given(p1={"hand": [], "field": [{"square": "A1", "card": "iron-king"}, {"square": "B1", "card": "soldier"}]},
                 p2={"field": [{"square": "B1", "card": "guardian", "upright": False}, {"square": "C1",
                                                                                        "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert game.events[-3].value == 0 and not damaged(game)  # attack_declared, passed, chain_resolved
    assert (game.unit("p2", "B1").damage, game.unit("p2", "B1").hits) == (0, 0)
    assert text(SYSTEM.fold(game.events[:-1]), game.events[-1]) == "it stands (R3): an attack of 0 deals no damage (R5)"
    game.play(act("p1", "attack", square="A1", target="B1"), act("p2", "pass"))
    assert damaged(game)[-1].result == "captured"  # a single instance equal to the defence (R2)


def test_r6_a_captured_king_goes_to_its_owners_graveyard_never_into_a_kingdom():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "bow-king", "upright": False}, {"square": "A1",
                                                                                       "card": "archer"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    hit, ended = damaged(game)[-1], game.events[-1]
    assert (hit.result, hit.to) == ("captured", "graveyard")
    assert isinstance(ended, GameEnded) and (ended.reason, ended.kingdoms, ended.graveyards) == ("execution", (0, 0),
                                                                                                 (0, 1))
    assert game.state.player("p1").kingdom == () and game.state.player("p2").graveyard == ("p2.bow-king.1",)
    outcome = SYSTEM.outcome(game.state)
    assert outcome is not None and outcome.scores == {"p1": 0, "p2": 0}
    assert text(game.state, hit).endswith("captured; a KING goes to the graveyard (R6)")


def test_r6_a_captured_basic_unit_still_goes_to_the_capturers_kingdom():
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "archer", "upright": False}, {"square": "A1",
                                                                                     "card": "soldier"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    hit = damaged(game)[-1]
    assert (hit.result, hit.to) == ("destroyed", "graveyard")  # 2 > sideways 1
    game = given(p1={"field": [{"square": "B1", "card": "iron-king"}]},
                 p2={"field": [{"square": "B1", "card": "priest"}, {"square": "A1", "card": "soldier"}]})
    game.play(act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    assert (damaged(game)[-1].result, damaged(game)[-1].to) == ("captured", "kingdom")
    assert game.state.player("p1").kingdom == ("p2.priest.1",)


@pytest.mark.parametrize("zone", ["hand", "standby", "kingdom", "graveyard", "deck", "field"])
def test_r7_a_position_holding_more_of_a_type_than_the_deck_is_refused(zone):
    # vanguard holds 3 PRIESTs; the default player has none: two in the zone, two in the hand are four
    extra = [{"square": s, "card": "priest"} for s in ("A2", "C2")] if zone == "field" else ["priest", "priest"]
    spec: dict[str, Any] = {"hand": ["priest", "priest"], "deck": ["wizard"]}
    spec[zone] = spec.get(zone, []) + extra if zone != "field" else [{"square": "B1", "card": "guardian"}, *extra]
    with pytest.raises(SetupError) as error:
        given(p1=spec)
    assert (error.value.code, error.value.rule) == ("invalid_position", "R7")
    message = error.value.message
    assert "p1's position holds 4 PRIEST cards" in message and "vanguard deck holds 3" in message
    given(p1={"hand": ["priest", "priest"], "graveyard": ["priest"], "deck": ["wizard"]})  # three: possible


def test_r7_a_hand_card_is_named_by_its_id_or_its_type_and_not_by_a_copy_it_does_not_hold():
    game = given(p1={"hand": ["iron-king", "archer", "archer"], "deck": ["archer"]})
    error = game.refused(act("p1", "entry", card="p1.archer.3"))  # the deck's
    assert (error.code, error.rule) == ("not_in_hand", "§4")
    assert game.refused(act("p1", "entry", card="wizard")).code == "not_in_hand"
    game.play(act("p1", "entry", card="p1.archer.2"))
    assert game.state.player("p1").kingdom == ("p1.archer.1",)  # R7: the lowest copy no public zone holds
    assert sorted(game.state.player("p1").hand) == ["p1.archer.2", "p1.iron-king.1"]  # the copies re-named


def test_r7_a_position_numbers_its_public_cards_before_the_hidden_ones():
    game = given(p1={"hand": ["iron-king", "wizard"], "graveyard": ["wizard"], "deck": ["wizard"]})
    p1 = game.state.player("p1")
    assert (p1.graveyard, p1.hand, p1.deck) == (("p1.wizard.1",), ("p1.iron-king.1", "p1.wizard.2"),
                                                ("p1.wizard.3",))
