"""Every procedure and ruling of the Light Wars digest (shared/rules/light-wars.md, §1-§5, R1-R6), by name.

Most tests start from a position in table mode, so the dice are the test's own (``roll``); the sealed tests check
that the generator rolls them instead.
"""

from __future__ import annotations

import msgspec
import pytest

from engine.errors import SetupError
from engine.light_wars import SYSTEM
from engine.light_wars.catalogue import BASES, UNIT_TYPES
from engine.light_wars.geometry import castle, territory
from events.light_wars import (
    AttackDeclared,
    AttackResolved,
    DeciderNamed,
    DieRolled,
    GameEnded,
    RollOffWon,
    TurnPassed,
)
from tests.engine.light_wars.lw_given import Game, position_game, position_setup, tags

KINGS = ["p1 K A1 N", "p2 K I9 S"]


def roll(game: Game, attack: int, defence: int) -> tuple:
    """Enter both dice of the declared attack (table mode): the attacker's, then the defender's."""
    pending = game.state.pending
    assert pending is not None
    game.act({"type": "roll", "player": pending.player, "value": attack})
    return game.act({"type": "roll", "player": pending.defender, "value": defence})


def resolved(events) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


# -- §1 and R1: the sample map, units and bases -------------------------------------------------------------


def test_r1_sample_map_is_nine_by_nine_with_two_row_territories_and_middle_back_castles() -> None:
    assert castle(0) == "E1" and castle(1) == "E9"
    assert len(territory(0)) == 18 and {sq[1:] for sq in territory(0)} == {"1", "2"}
    assert {sq[1:] for sq in territory(1)} == {"8", "9"}
    assert BASES == 12
    assert UNIT_TYPES["infantry"].move == 2 and UNIT_TYPES["king"].cost == 0
    assert {"king", "infantry", "cavalry", "archer", "spearman"} == set(UNIT_TYPES)


# -- §2 preparation -----------------------------------------------------------------------------------------


def _setup(p1="balanced", p2="archers", **variant) -> dict:
    return {"system": "light-wars", "seed": 3, "variant": variant,
            "players": [{"id": "p1", "army": p1}, {"id": "p2", "army": p2}]}


@pytest.mark.parametrize(("size", "cost", "turns"), [("small", 20, 5), ("medium", 30, 8), ("large", 40, 12)])
def test_s2_1_scenario_sizes_set_total_cost_and_turns(size: str, cost: int, turns: int) -> None:
    state = SYSTEM.fold(SYSTEM.start(_setup(size=size)))
    assert (state.variant.total_cost, state.variant.max_turns) == (cost, turns)


def test_s2_1_custom_scenario_takes_its_numbers_and_refuses_mismatches() -> None:
    state = SYSTEM.fold(SYSTEM.start(_setup(size="custom", total_cost=25, max_turns=3)))
    assert (state.variant.total_cost, state.variant.max_turns) == (25, 3)
    for bad in ({"size": "small", "total_cost": 25}, {"size": "custom", "total_cost": 25},
                {"size": "custom", "total_cost": 0, "max_turns": 3}, {"size": "huge"}):
        with pytest.raises(SetupError) as refused:
            SYSTEM.start(_setup(**bad))
        assert refused.value.rule == "§2.1"


def test_s2_2_army_costs_at_most_the_total_cost() -> None:
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(_setup(p1="legion"))  # 27 > 20
    assert refused.value.rule == "§2.2" and "27" in refused.value.message
    SYSTEM.start(_setup(p1="legion", size="medium"))


def test_s2_2_at_most_ten_units() -> None:
    eleven = {"units": ["king"] + ["infantry"] * 10}
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(_setup(p1=eleven, size="custom", total_cost=40, max_turns=5))
    assert refused.value.rule == "§2.2"


@pytest.mark.parametrize("units", [["infantry"], ["king", "king", "infantry"]])
def test_r2_exactly_one_king_of_cost_zero(units: list[str]) -> None:
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(_setup(p1={"units": units}))
    assert refused.value.rule == "R2"
    assert UNIT_TYPES["king"].cost == 0


def test_s2_2_base_stock_is_the_bases_left_after_mounting_the_units() -> None:
    state = SYSTEM.fold(SYSTEM.start(_setup(p1={"units": ["king", "infantry"]})))
    assert state.stock == (BASES - 2, BASES - 6)
    assert [u.id for u in state.units if u.owner == 0] == ["K", "I1"]


def test_s2_3_alternate_deployment_sealed_roll_off_winner_deploys_first() -> None:
    events = SYSTEM.start(_setup())
    dice = [e for e in events if isinstance(e, DieRolled)]
    won = next(e for e in events if isinstance(e, RollOffWon))
    assert all(d.source == "prng" and d.purpose == "deployment" for d in dice)
    last_two = dice[-2:]
    assert last_two[0].value != last_two[1].value
    assert won.winner == ("p1" if last_two[0].value > last_two[1].value else "p2")
    assert SYSTEM.to_act(SYSTEM.fold(events)) == (won.winner,)


def test_s2_3_table_roll_off_ties_roll_again_then_the_higher_die_deploys_first() -> None:
    game = Game(_setup(mode="table"))
    assert SYSTEM.to_act(game.state) == ("p1", "p2")
    game.act({"type": "roll", "player": "p2", "value": 4})
    assert SYSTEM.to_act(game.state) == ("p1",)
    assert tags(game.act({"type": "roll", "player": "p1", "value": 4})) == ["die_rolled", "roll_off_tied"]
    assert SYSTEM.to_act(game.state) == ("p1", "p2")
    game.act({"type": "roll", "player": "p1", "value": 2})
    produced = game.act({"type": "roll", "player": "p2", "value": 5})
    assert produced[-1] == RollOffWon(purpose="deployment", winner="p2")
    assert SYSTEM.to_act(game.state) == ("p2",)


def test_s2_3_alternate_deployment_into_own_territory_one_unit_at_a_time() -> None:
    game = Game(_setup(mode="table"))
    game.act({"type": "roll", "player": "p1", "value": 6})
    game.act({"type": "roll", "player": "p2", "value": 1})
    game.refused({"type": "deploy", "player": "p1", "unit": "K", "square": "E3", "facing": "N"},
                 "outside_territory", "§2.3")
    game.refused({"type": "deploy", "player": "p2", "unit": "K", "square": "E9", "facing": "S"},
                 "not_your_turn", "§2.3")
    game.act({"type": "deploy", "player": "p1", "unit": "K", "square": "E1", "facing": "N"})
    game.refused({"type": "deploy", "player": "p1", "unit": "I1", "square": "E2", "facing": "N"},
                 "not_your_turn", "§2.3")
    game.act({"type": "deploy", "player": "p2", "unit": "K", "square": "E9", "facing": "S"})
    game.refused({"type": "deploy", "player": "p1", "unit": "K", "square": "D1", "facing": "N"},
                 "already_deployed", "§2.3")
    game.refused({"type": "deploy", "player": "p1", "unit": "I1", "square": "E1", "facing": "N"}, "occupied", "§2.3")
    assert game.unit("p1", "K")["square"] == "E1"


def _deploy_everything(game: Game) -> None:
    while game.state.phase == "deploy":
        seat = SYSTEM.to_act(game.state)[0]
        game.act(msgspec.to_builtins(SYSTEM.legal_actions(game.state, seat)[0]))


def test_s2_4_more_unused_cost_decides_the_first_player() -> None:
    game = Game(_setup(p1="balanced", p2="riders", mode="table"))  # 16 vs 18: p1 has 4 unused, p2 2
    game.act({"type": "roll", "player": "p1", "value": 6})
    game.act({"type": "roll", "player": "p2", "value": 1})
    _deploy_everything(game)
    named = next(e for e in game.events if isinstance(e, DeciderNamed))
    assert (named.player, named.by) == ("p1", "cost") and named.unused == {"p1": 4, "p2": 2}
    game.refused({"type": "choose_first", "player": "p2", "first": "p2"}, "not_your_turn", "§2.4")
    game.act({"type": "choose_first", "player": "p1", "first": "p2"})
    assert game.shown["first"] == "p2" and SYSTEM.to_act(game.state) == ("p2",) and game.state.turn == 1


def test_s2_4_equal_unused_cost_more_bases_in_stock_decides() -> None:
    small = {"units": ["king", "cavalry", "infantry", "infantry", "infantry"], "tactics": ["forced-march"]}  # 12
    many = {"units": ["king", "infantry", "infantry", "infantry", "infantry", "infantry", "infantry"]}  # 12
    game = Game(_setup(p1=many, p2=small, mode="table"))
    game.act({"type": "roll", "player": "p1", "value": 6})
    game.act({"type": "roll", "player": "p2", "value": 1})
    _deploy_everything(game)
    named = next(e for e in game.events if isinstance(e, DeciderNamed))
    assert (named.player, named.by) == ("p2", "bases") and named.stock == {"p1": 5, "p2": 7}


def test_s2_4_equal_cost_and_bases_a_roll_off_decides_both_ways() -> None:
    for p1_die, p2_die, decider in ((2, 5, "p2"), (6, 1, "p1")):
        game = Game(_setup(p1="balanced", p2="balanced", mode="table"))
        game.act({"type": "roll", "player": "p1", "value": 6})
        game.act({"type": "roll", "player": "p2", "value": 1})
        _deploy_everything(game)
        named = next(e for e in game.events if isinstance(e, DeciderNamed))
        assert (named.player, named.by) == (None, "dice") and game.state.phase == "roll_off"
        game.act({"type": "roll", "player": "p1", "value": p1_die})
        produced = game.act({"type": "roll", "player": "p2", "value": p2_die})
        assert produced[-1] == RollOffWon(purpose="first_player", winner=decider)
        assert SYSTEM.to_act(game.state) == (decider,)


def test_s2_3_screened_deployment_waits_for_both_then_lifts_the_screen() -> None:
    game = Game(_setup(deployment="screen"))
    assert SYSTEM.to_act(game.state) == ("p1", "p2")
    p2_layout = SYSTEM.legal_actions(game.state, "p2")[0]
    game.act(msgspec.to_builtins(p2_layout))
    assert SYSTEM.to_act(game.state) == ("p1",)
    assert all(u.status == "screened" for u in game.state.units if u.owner == 1)
    bad = msgspec.to_builtins(SYSTEM.legal_actions(game.state, "p1")[0])
    game.refused({**bad, "placements": bad["placements"][:-1]}, "whole_army", "§2.3")
    game.refused({**bad, "placements": [{**p, "square": "E5"} for p in bad["placements"]]}, "outside_territory",
                 "§2.3")
    game.refused({"type": "deploy", "player": "p1", "unit": "K", "square": "E1", "facing": "N"},
                 "screened_deployment", "§2.3")
    produced = game.act(bad)
    assert tags(produced)[:3] == ["deployment_screened", "screen_lifted", "decider_named"]
    assert all(u.status == "placed" for u in game.state.units)


# -- §3 the turn --------------------------------------------------------------------------------------------


def test_s3_1_tactic_tiles_are_paid_in_bases_that_leave_the_game() -> None:
    game = Game(position_setup([*KINGS, "p1 I1 C2 N"], tactics={"p1": ["forced-march", "battle-cry"]}))
    before = game.state.stock[0]
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "C3", "facing": "N"}, "wrong_phase", "§3.2")
    game.refused({"type": "tactics", "player": "p1", "tiles": ["steady-aim"]}, "unknown_tile", "§3.1")
    game.refused({"type": "tactics", "player": "p1", "tiles": ["battle-cry", "battle-cry"]}, "tile_twice", "§3.1")
    game.act({"type": "tactics", "player": "p1", "tiles": ["forced-march", "battle-cry"]})
    assert game.state.stock[0] == before - 4 and game.shown["tactics_in_effect"] == ["forced-march", "battle-cry"]


def test_s3_1_tiles_cost_no_more_bases_than_the_stock_holds() -> None:
    game = Game(position_setup([*KINGS], tactics={"p1": ["forced-march", "battle-cry"]}, stock={"p1": 3}))
    game.refused({"type": "tactics", "player": "p1", "tiles": ["forced-march", "battle-cry"]}, "not_enough_bases",
                 "§3.1")
    game.act({"type": "tactics", "player": "p1", "tiles": ["forced-march"]})
    assert game.state.stock[0] == 1


def test_s3_1_a_tile_lasts_until_the_end_of_the_turn() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N"], tiles=["forced-march"], tactics={"p1": ["forced-march"]})
    game.act({"type": "move", "player": "p1", "square": "C2", "to": "C5", "facing": "N"})  # 3 = 2 + 1
    game.act({"type": "wait", "player": "p1", "square": "A1"})
    produced = game.act({"type": "wait", "player": "p1", "square": "C5"})
    assert isinstance(produced[-1], TurnPassed) and game.state.tiles == ()


def test_s3_2_move_up_to_the_move_value_in_orthogonal_steps() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N"])
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "C5", "facing": "N"}, "too_far", "§3.2")
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "E3", "facing": "N"}, "too_far", "§3.2")
    game.act({"type": "move", "player": "p1", "square": "C2", "to": "D3", "facing": "E"})  # two steps, turned
    moved = game.unit("p1", "I1")
    assert (moved["square"], moved["facing"], moved["status"]) == ("D3", "E", "moved")


def test_s3_2_never_through_another_unit() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N", "p1 I2 C3 N", "p1 I3 B2 N", "p1 I4 D2 N"])
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"}, "blocked", "§3.2")


def test_s3_2_never_onto_another_unit() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N", "p2 I1 C3 S"])
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "C3", "facing": "N"}, "occupied", "§3.2")


def test_s3_2_each_unit_acts_once_a_second_action_is_refused() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N", "p1 I2 D2 N"])
    game.act({"type": "wait", "player": "p1", "square": "C2"})
    game.refused({"type": "move", "player": "p1", "square": "C2", "to": "C3", "facing": "N"}, "already_acted",
                 "§3.2")
    game.refused({"type": "wait", "player": "p1", "square": "C2"}, "already_acted", "§3.2")


def test_s3_2_only_own_units_act_and_only_in_ones_own_turn() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N", "p2 I1 C8 S"])
    game.refused({"type": "move", "player": "p1", "square": "C8", "to": "C7", "facing": "S"}, "not_your_unit", "§3.2")
    game.refused({"type": "move", "player": "p2", "square": "C8", "to": "C7", "facing": "S"}, "not_your_turn", "§3.2")
    game.refused({"type": "move", "player": "p1", "square": "C5", "to": "C6", "facing": "S"}, "no_unit", "§3.2")


def test_r3_a_waiting_unit_may_turn() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N"])
    game.act({"type": "wait", "player": "p1", "square": "C2", "facing": "W"})
    assert game.unit("p1", "I1")["facing"] == "W" and game.unit("p1", "I1")["status"] == "done"


def test_r4_a_moved_unit_moves_once_but_joins_a_later_joint_attack() -> None:
    game = position_game([*KINGS, "p1 C1 A4 N", "p1 I1 C2 N", "p2 A1 C5 S"])
    game.act({"type": "move", "player": "p1", "square": "A4", "to": "B5", "facing": "E"})
    game.refused({"type": "move", "player": "p1", "square": "B5", "to": "B6", "facing": "E"}, "already_moved", "R4")
    game.act({"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"})
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["B5", "C4"]})
    assert all(game.unit("p1", u)["status"] == "done" for u in ("C1", "I1"))


def test_r6_a_moved_unit_turns_then_attacks_in_the_same_phase() -> None:
    game = position_game([*KINGS, "p1 C1 A4 N", "p2 I1 C5 S"])
    game.act({"type": "move", "player": "p1", "square": "A4", "to": "B5", "facing": "N"})  # the facing it has
    game.refused({"type": "attack", "player": "p1", "target": "C5", "attackers": ["B5"]}, "not_facing", "§4")
    produced = game.act({"type": "turn", "player": "p1", "square": "B5", "facing": "E"})
    assert tags(produced) == ["unit_turned"] and game.unit("p1", "C1")["status"] == "moved"
    declared = game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["B5"]})[0]
    assert isinstance(declared, AttackDeclared) and declared.participants[0].side == "side"


def test_r6_a_turn_is_no_move_and_ends_no_action() -> None:
    game = position_game([*KINGS, "p1 I1 C2 N", "p1 I2 H2 N"])
    game.act({"type": "turn", "player": "p1", "square": "C2", "facing": "E"})
    game.act({"type": "turn", "player": "p1", "square": "C2", "facing": "N"})  # as often as it likes
    assert game.unit("p1", "I1")["status"] == "ready"
    game.act({"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"})  # the whole move left
    game.refused({"type": "move", "player": "p1", "square": "H2", "to": "H2", "facing": "W"}, "not_a_move", "R6")
    game.refused({"type": "turn", "player": "p1", "square": "H2", "facing": "N"}, "same_facing", "R6")
    game.refused({"type": "turn", "player": "p1", "square": "H2", "facing": "up"}, "bad_facing", "R6")
    game.act({"type": "wait", "player": "p1", "square": "C4"})
    game.refused({"type": "turn", "player": "p1", "square": "C4", "facing": "E"}, "already_acted", "§3.2")
    game.act({"type": "wait", "player": "p1", "square": "A1"})
    produced = game.act({"type": "turn", "player": "p1", "square": "H2", "facing": "W"})  # the last unit to act
    assert tags(produced) == ["unit_turned"] and game.state.phase == "actions"  # the phase goes on
    assert tags(game.act({"type": "wait", "player": "p1", "square": "H2"})) == ["unit_waited", "turn_passed"]


def test_r6_the_greedy_bot_turns_a_unit_to_strike_the_enemy_beside_it() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p2 I1 D4 S"])
    bot = SYSTEM.bots["greedy"](1)
    turn = bot.choose(game.state, "p1")
    assert msgspec.to_builtins(turn) == {"type": "turn", "player": "p1", "square": "C4", "facing": "E"}
    game.act(msgspec.to_builtins(turn))
    attack = bot.choose(game.state, "p1")
    assert msgspec.to_builtins(attack) == {"type": "attack", "player": "p1", "target": "D4", "attackers": ("C4",)}


def test_s3_3_the_turn_marker_moves_after_the_second_players_phase_and_marker_1_ends_the_game() -> None:
    game = position_game([*KINGS], variant={"size": "custom", "total_cost": 20, "max_turns": 2})
    assert game.shown["marker"] == 2
    produced = game.act({"type": "wait", "player": "p1", "square": "A1"})
    assert produced[-1] == TurnPassed(player="p2", turn=1, marker=2)
    game.act({"type": "tactics", "player": "p2", "tiles": []})
    produced = game.act({"type": "wait", "player": "p2", "square": "I9"})
    assert produced[-1] == TurnPassed(player="p1", turn=2, marker=1) and game.shown["marker"] == 1
    game.act({"type": "tactics", "player": "p1", "tiles": []})
    game.act({"type": "wait", "player": "p1", "square": "A1"})
    game.act({"type": "tactics", "player": "p2", "tiles": []})
    produced = game.act({"type": "wait", "player": "p2", "square": "I9"})
    assert isinstance(produced[-1], GameEnded) and produced[-1].reason == "score" and produced[-1].winner is None


# -- §4 combat ----------------------------------------------------------------------------------------------


def test_s4_the_worked_example_cavalry_side_and_infantry_rear_against_an_archer() -> None:
    # the Archer on D5 faces W; the Cavalry on D6 (its side, +1) and the Infantry on E5 (its rear, +2)
    game = position_game([*KINGS, "p1 C1 D6 S", "p1 I1 E5 W", "p2 A1 D5 W"])
    declared = game.act({"type": "attack", "player": "p1", "target": "D5", "attackers": ["D6", "E5"]})[0]
    assert isinstance(declared, AttackDeclared)
    assert [(p.unit, p.attack, p.side, p.bonus) for p in declared.participants] == \
        [("C1", 3, "side", 1), ("I1", 2, "rear", 2)]
    result = resolved(roll(game, 4, 5))
    assert (result.attack_total, result.defence_total, result.winner) == (12, 6, "attack")
    assert [r.unit for r in result.removed] == ["A1"] and game.unit("p2", "A1") is None


def test_s4_an_attacker_must_face_the_target() -> None:
    game = position_game([*KINGS, "p1 I1 C4 E", "p2 I1 C5 S"])
    game.refused({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]}, "not_facing", "§4")


def test_s4_an_attacker_must_be_adjacent() -> None:
    game = position_game([*KINGS, "p1 I1 C3 N", "p2 I1 C5 S"])
    game.refused({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C3"]}, "not_adjacent", "§4")
    game.refused({"type": "attack", "player": "p1", "target": "C6", "attackers": ["C3"]}, "no_target", "§4")
    game.refused({"type": "attack", "player": "p1", "target": "A1", "attackers": ["C3"]}, "own_unit", "§4")


def test_s4_a_tie_removes_the_defender_and_its_base_goes_to_its_stock() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p2 I1 C5 S"])
    stock = game.state.stock[1]
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    result = resolved(roll(game, 3, 3))  # 2 + 3 = 2 + 3
    assert (result.winner, result.tie) == ("attack", "defender_removed")
    assert game.state.stock[1] == stock + 1 and game.shown["scores"] == {"p1": 2, "p2": 0}


def test_s4_the_lower_attacking_side_is_removed_whole() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p1 I2 B5 E", "p2 C1 C5 W"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4", "B5"]})
    result = resolved(roll(game, 1, 6))  # 2+1 + 2+0 + 1 = 6 < 3 + 6 = 9
    assert result.winner == "defence" and sorted(r.unit for r in result.removed) == ["I1", "I2"]
    assert game.shown["scores"] == {"p1": 0, "p2": 4} and game.state.stock[0] == BASES - 3 + 2


def test_s4_archer_shoots_two_or_three_squares_straight_ahead() -> None:
    game = position_game([*KINGS, "p1 A1 C2 N", "p2 I1 C4 S", "p2 I2 C5 S", "p2 I3 C6 S"])
    game.refused({"type": "attack", "player": "p1", "target": "C6", "attackers": ["C2"]}, "out_of_range", "§4")
    declared = game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C2"]})[0]
    assert declared.participants[0].shooting


def test_r5_a_shooting_archer_is_never_removed() -> None:
    game = position_game([*KINGS, "p1 A1 C2 N", "p2 C1 C4 S"])
    game.act({"type": "attack", "player": "p1", "target": "C4", "attackers": ["C2"]})
    result = resolved(roll(game, 1, 6))
    assert result.winner == "defence" and result.removed == () and game.unit("p1", "A1") is not None


def test_r5_archers_and_adjacent_attackers_join_one_attack() -> None:
    game = position_game([*KINGS, "p1 A1 C2 N", "p1 I1 B4 E", "p2 I1 C4 W"])
    declared = game.act({"type": "attack", "player": "p1", "target": "C4", "attackers": ["C2", "B4"]})[0]
    assert [(p.unit, p.shooting, p.side, p.bonus) for p in declared.participants] == \
        [("A1", True, "side", 1), ("I1", False, "front", 0)]  # the shot from 2 squares S, the infantry from the W
    result = resolved(roll(game, 3, 4))
    assert result.attack_total == 1 + 1 + 2 + 0 + 3 and result.winner == "attack"  # one attack, one total


def test_r5_a_lost_attack_removes_every_attacker_but_the_shooting_archers() -> None:
    game = position_game([*KINGS, "p1 A1 C2 N", "p1 A2 C3 N", "p1 I1 B4 E", "p2 C1 C4 S"])
    game.act({"type": "attack", "player": "p1", "target": "C4", "attackers": ["C2", "C3", "B4"]})
    declared = next(e for e in game.events if isinstance(e, AttackDeclared))
    assert [(p.unit, p.shooting) for p in declared.participants] == [("A1", True), ("A2", False), ("I1", False)]
    result = resolved(roll(game, 1, 6))  # 1+2 + 1+0 + 2+1 + 1 = 8 < 3 + 6 = 9
    assert result.winner == "defence" and sorted(r.unit for r in result.removed) == ["A2", "I1"]
    assert game.unit("p1", "A1") is not None and game.unit("p1", "A2") is None


def test_r5_an_archer_attacking_from_the_next_square_is_not_shooting_and_is_removed_when_it_loses() -> None:
    game = position_game([*KINGS, "p1 A1 C3 N", "p2 I1 C4 S"])
    declared = game.act({"type": "attack", "player": "p1", "target": "C4", "attackers": ["C3"]})[0]
    assert isinstance(declared, AttackDeclared) and declared.participants[0].shooting is False
    result = resolved(roll(game, 1, 6))
    assert result.winner == "defence" and [r.unit for r in result.removed] == ["A1"]
    assert game.unit("p1", "A1") is None and game.shown["scores"]["p2"] == UNIT_TYPES["archer"].cost


def test_s4_spearman_first_strike_wins_a_tie_as_defender() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p2 S1 C5 S"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    result = resolved(roll(game, 4, 4))
    assert (result.winner, result.tie) == ("defence", "first_strike") and [r.unit for r in result.removed] == ["I1"]


def test_s4_spearmen_on_both_sides_the_normal_tie_rule_removes_the_defender() -> None:
    game = position_game([*KINGS, "p1 S1 C4 N", "p2 S1 C5 S"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    result = resolved(roll(game, 2, 2))
    assert (result.winner, result.tie) == ("attack", "both_first_strike") and result.removed[0].player == "p2"


def test_s4_an_attacking_spearman_wins_a_tie() -> None:
    game = position_game([*KINGS, "p1 S1 C4 N", "p2 I1 C5 S"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    assert resolved(roll(game, 5, 5)).winner == "attack"


def test_s4_dice_decide_a_close_attack_both_ways() -> None:
    for attack_die, defence_die, winner in ((6, 1, "attack"), (1, 6, "defence"), (4, 3, "attack"), (3, 4, "defence")):
        game = position_game([*KINGS, "p1 I1 C4 N", "p2 I1 C5 S"])
        game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
        assert resolved(roll(game, attack_die, defence_die)).winner == winner


def test_s4_table_dice_are_entered_1_to_6_by_the_awaited_side() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p2 I1 C5 S"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    assert SYSTEM.to_act(game.state) == ("p1",)
    for bad in (7, 0, -1):
        game.refused({"type": "roll", "player": "p1", "value": bad}, "die_value", "§4")
    game.refused({"type": "roll", "player": "p2", "value": 3}, "not_your_turn", "§4")
    game.refused({"type": "wait", "player": "p1", "square": "A1"}, "wrong_phase", "§3.2")
    game.act({"type": "roll", "player": "p1", "value": 3})
    assert SYSTEM.to_act(game.state) == ("p2",)


def test_s4_each_die_is_an_event_tied_to_the_attack_it_decides() -> None:
    game = position_game([*KINGS, "p1 I1 C4 N", "p1 I2 D6 S", "p2 I1 C5 S", "p2 I2 D5 E"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    roll(game, 6, 1)
    game.act({"type": "attack", "player": "p1", "target": "D5", "attackers": ["D6"]})
    roll(game, 2, 5)
    dice = [e for e in game.events if isinstance(e, DieRolled)]
    assert [(d.attack, d.purpose, d.player, d.value, d.source) for d in dice] == [
        (1, "attack", "p1", 6, "table"), (1, "defence", "p2", 1, "table"),
        (2, "attack", "p1", 2, "table"), (2, "defence", "p2", 5, "table")]


def test_s4_sealed_dice_come_from_the_seed_and_none_is_entered() -> None:
    units = [*KINGS, "p1 I1 C4 N", "p2 I1 C5 S"]
    game = position_game(units, mode="sealed", seed=11)
    game.refused({"type": "roll", "player": "p1", "value": 3}, "sealed_dice", "§4")
    produced = game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    assert tags(produced)[:4] == ["attack_declared", "die_rolled", "die_rolled", "attack_resolved"]
    assert all(e.source == "prng" and e.attack == 1 for e in produced if isinstance(e, DieRolled))
    again = position_game(units, mode="sealed", seed=11)
    assert again.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]}) == produced
    values = set()
    for seed in range(40):
        other = position_game(units, mode="sealed", seed=seed)
        other.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
        values |= {e.value for e in other.events if isinstance(e, DieRolled)}
    assert values == {1, 2, 3, 4, 5, 6}


def test_s3_1_battle_cry_and_steady_aim_add_to_the_attack() -> None:
    game = position_game([*KINGS, "p1 A1 C2 N", "p1 I1 B4 E", "p2 I1 C4 S"], tiles=["battle-cry", "steady-aim"],
                         tactics={"p1": ["battle-cry", "steady-aim"]})
    declared = game.act({"type": "attack", "player": "p1", "target": "C4", "attackers": ["C2", "B4"]})[0]
    assert declared.tactic_bonus == 1 and [p.attack for p in declared.participants] == [2, 2]
    result = resolved(roll(game, 1, 1))
    assert result.attack_total == 2 + 2 + 1 + 1 + 1  # archer 1+1 front, infantry 2 + side 1, battle cry 1, die 1


# -- §5 victory ---------------------------------------------------------------------------------------------


def test_s5_1_removing_the_enemy_king_wins() -> None:
    game = position_game(["p1 K A1 N", "p2 K C5 S", "p1 C1 C4 N"])
    game.act({"type": "attack", "player": "p1", "target": "C5", "attackers": ["C4"]})
    produced = roll(game, 6, 1)
    assert produced[-1] == GameEnded(reason="king", winner="p1", scores={"p1": 0, "p2": 0},
                                     stock={"p1": BASES - 2, "p2": BASES})
    assert SYSTEM.outcome(game.state).winners == ("p1",) and SYSTEM.to_act(game.state) == ()


def test_s5_2_moving_onto_the_enemy_castle_wins() -> None:
    game = position_game(["p1 K A1 N", "p2 K I9 S", "p1 C1 E7 N"])
    produced = game.act({"type": "move", "player": "p1", "square": "E7", "to": "E9", "facing": "N"})
    assert isinstance(produced[-1], GameEnded) and (produced[-1].reason, produced[-1].winner) == ("castle", "p1")


def test_s5_3_at_the_end_the_higher_score_wins() -> None:
    game = position_game([*KINGS], variant={"size": "custom", "total_cost": 20, "max_turns": 1},
                         scores={"p1": 3, "p2": 5})
    game.act({"type": "wait", "player": "p1", "square": "A1"})
    game.act({"type": "tactics", "player": "p2", "tiles": []})
    ended = game.act({"type": "wait", "player": "p2", "square": "I9"})[-1]
    assert (ended.reason, ended.winner, ended.scores) == ("score", "p2", {"p1": 3, "p2": 5})
    assert SYSTEM.outcome(game.state).scores == {"p1": 3, "p2": 5}


def test_s5_3_equal_scores_more_bases_in_stock_wins_then_a_draw() -> None:
    for stock, winner in (({"p1": 9, "p2": 4}, "p1"), ({"p1": 6, "p2": 6}, None)):
        game = position_game([*KINGS], variant={"size": "custom", "total_cost": 20, "max_turns": 1},
                             scores={"p1": 2, "p2": 2}, stock=stock)
        game.act({"type": "wait", "player": "p1", "square": "A1"})
        game.act({"type": "tactics", "player": "p2", "tiles": []})
        ended = game.act({"type": "wait", "player": "p2", "square": "I9"})[-1]
        assert ended.winner == winner
        outcome = SYSTEM.outcome(game.state)
        assert outcome.is_draw if winner is None else outcome.winners == (winner,)


def test_concession_ends_the_game_for_the_other_side_at_any_time() -> None:
    game = Game(_setup(mode="table"))
    produced = game.act({"type": "concede", "player": "p2"})
    assert tags(produced) == ["conceded", "game_ended"] and produced[-1].winner == "p1"
    game.refused({"type": "concede", "player": "p1"}, "game_over", "§5")


# -- positions ----------------------------------------------------------------------------------------------


def test_position_starts_at_the_tactics_step_and_round_trips_through_recorded_setup() -> None:
    setup = position_setup([*KINGS, "p1 I1 C2 N"], to_move="p2", turn=3, first="p1")
    events = SYSTEM.start(setup)
    state = SYSTEM.fold(events)
    assert (state.phase, SYSTEM.to_act(state), state.turn) == ("tactics", ("p2",), 3)
    assert SYSTEM.start(SYSTEM.recorded_setup(events)) == events


@pytest.mark.parametrize(("units", "rule"), [
    (["p1 K A1 N"], "R2"),  # p2's King missing
    (["p1 K A1 N", "p2 K A1 S"], "§3.2"),  # two units on one square
    (["p1 K E9 N", "p2 K A9 S"], "§5.2"),  # on the enemy castle
    (["p1 K Z1 N", "p2 K A9 S"], "R1"),
])
def test_position_is_checked(units: list[str], rule: str) -> None:
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(position_setup(units))
    assert refused.value.rule == rule
