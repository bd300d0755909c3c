"""HeroScape's rules through the engine (digest §1-§8, R1-R2): each rule named, each refusal with its rule.

Positions on Twin Hill (docs/heroscape.md): level 1 ground, a level-3 ring and a level-5 rock hill in the middle
(Astrid on 0,0), a stream at q=-4, a road on r=3 with Kelda on -3,3, Gerda on 3,-3, a wall of height 4 between 1,2
and 2,2.
"""

from __future__ import annotations

from engine.heroscape import SYSTEM
from engine.heroscape.rules import destinations
from engine.heroscape.state import awaited, state_to_builtins
from events.heroscape import (
    AttackDeclared,
    AttackResolved,
    ChargeResolved,
    FigureDestroyed,
    FigureWounded,
    GameEnded,
    GlyphTaken,
    InitiativeTied,
    InitiativeWon,
    MarkerRevealed,
    MoveDeclared,
    TurnLost,
)
from replay.heroscape.views import state_view
from tests.engine.heroscape.hs_given import at_turn, markers, play, position_setup, refused, start, tags

GRIMNAK_UP = ["p1 grimnak 0,-2+1,-2", "p2 izumi-samurai/1 0,-3", "p2 izumi-samurai/2 4,-5"]


def fig(state, owner, figure):
    return next(f for f in state.figures if f.owner == (0 if owner == "p1" else 1) and f.id == figure)


def test_s2_order_markers_are_secret_until_revealed_and_the_decoy_never():
    state = start(position_setup(GRIMNAK_UP))
    state, events = play(state, markers("p1", "grimnak"))
    assert awaited(state) == ("p2",)
    assert state_view(state, "p2")["markers"]["p1"] == "placed"
    assert state_view(state, "p1")["markers"]["p1"]["X"] == "grimnak"
    state, events = play(state, markers("p2", "izumi-samurai"), {"type": "roll", "player": "p1", "values": [12]},
                         {"type": "roll", "player": "p2", "values": [3]})
    revealed = [e for e in events if isinstance(e, MarkerRevealed)]
    assert [(e.player, e.number, e.card) for e in revealed] == [("p1", 1, "grimnak")]
    assert state.order == ("p1", "p2")


def test_s2_initiative_tied_highest_roll_again():
    state = start(position_setup(GRIMNAK_UP))
    state, _ = play(state, markers("p1", "grimnak"), markers("p2", "izumi-samurai"))
    state, events = play(state, {"type": "roll", "player": "p1", "values": [9]},
                         {"type": "roll", "player": "p2", "values": [9]})
    assert isinstance(events[-1], InitiativeTied) and state.phase == "initiative"
    state, events = play(state, {"type": "roll", "player": "p1", "values": [2]},
                         {"type": "roll", "player": "p2", "values": [14]})
    won = next(e for e in events if isinstance(e, InitiativeWon))
    assert won.order == ("p2", "p1") and state.active == 1


def test_s2_three_turns_each_then_the_round_ends():
    state = at_turn(GRIMNAK_UP, p1="grimnak", p2="izumi-samurai")
    seen = []
    for _ in range(6):
        seen.append((state.order[state.turn_index % 2], state.number))
        seat = awaited(state)[0]
        state, events = play(state, {"type": "end_turn", "player": seat})
    assert seen == [("p1", 1), ("p2", 1), ("p1", 2), ("p2", 2), ("p1", 3), ("p2", 3)]
    assert "round_ended" in tags(events) and state.phase == "markers" and state.round == 2


def test_s2_a_turn_is_lost_when_its_card_has_no_figure():
    figures = ["p1 grimnak 0,-2+1,-2", "p1 marro-warriors/1 3,-5", "p2 izumi-samurai/1 0,-3"]
    state = start(position_setup(figures))
    # p1's marker 2 on marro-warriors; the marro figure is destroyed by an effect before its turn
    state, _ = play(state, {"type": "markers", "player": "p1",
                            "markers": {"1": "grimnak", "2": "marro-warriors", "3": "grimnak", "X": "grimnak"}},
                    markers("p2", "izumi-samurai"), {"type": "roll", "player": "p1", "values": [20]},
                    {"type": "roll", "player": "p2", "values": [1]})
    state, _ = play(state, {"type": "effect", "player": "p1", "card": "grimnak", "change": "destroy",
                            "figure": "marro-warriors/1", "text": "a test's own card text"})
    state, _ = play(state, {"type": "end_turn", "player": "p1"})
    state, events = play(state, {"type": "end_turn", "player": "p2"})
    lost = [e for e in events if isinstance(e, TurnLost)]
    assert [(e.player, e.number, e.card) for e in lost] == [("p1", 2, "marro-warriors")]
    assert awaited(state) == ("p2",) and state.number == 2


def test_s2_only_the_revealed_cards_figures_act():
    figures = ["p1 grimnak 0,-2+1,-2", "p1 marro-warriors/1 3,-5", "p2 izumi-samurai/1 0,-3"]
    state = at_turn(figures, p1="grimnak", p2="izumi-samurai")
    refused(state, {"type": "move", "player": "p1", "figure": "marro-warriors/1", "to": [3, -4]}, "§2",
            "not_this_card")
    refused(state, {"type": "end_turn", "player": "p2"}, "§2", "not_your_turn")


def test_s3_climbing_costs_one_a_level_and_a_climb_as_high_as_the_figure_is_impossible():
    state = at_turn(["p1 agent-carr 0,-3", "p2 izumi-samurai/1 0,5"], p1="agent-carr", p2="izumi-samurai")
    ends = destinations(state, fig(state, "p1", "agent-carr"))
    assert ends[(0, -2)] == 3  # level 1 -> 3: 1 + 2 climbed
    assert (0, -1) not in ends  # 3 -> 5 after 3 spent: 3 more, move 5
    refused(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [0, 0]}, "§3", "too_far")


def test_s3_enemies_block_friends_are_passed_and_no_move_ends_on_a_figure():
    figures = ["p1 agent-carr -2,-2", "p1 sgt-drake -1,-2", "p2 izumi-samurai/1 0,5"]
    state = at_turn(figures, p1="agent-carr", p2="izumi-samurai")
    refused(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [-1, -2]}, "§3", "occupied")
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [0, -3]})
    assert isinstance(events[0], MoveDeclared) and fig(state, "p1", "agent-carr").hex == (0, -3)
    refused(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [1, -3]}, "§3", "already_moved")


def test_s3_entering_water_stops_the_figure():
    state = at_turn(["p1 agent-carr -5,1", "p2 izumi-samurai/1 0,5"], p1="agent-carr", p2="izumi-samurai")
    ends = destinations(state, fig(state, "p1", "agent-carr"))
    assert (-4, 1) in ends and (-3, 1) in ends  # round the stream by the bank... or across it: water stops
    assert ends[(-4, 1)] == 1


def test_s3_road_adds_three_spaces_when_the_move_keeps_to_it():
    state = at_turn(["p1 agent-carr -5,0", "p2 izumi-samurai/1 5,-5"], p1="agent-carr", p2="izumi-samurai",
                    board="river-ford")
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [1, 0]})
    declared = events[0]
    assert isinstance(declared, MoveDeclared) and declared.road and declared.cost == 8 and declared.allowance == 8


def test_s4_leaving_engagement_each_engaged_enemy_strikes_one_die():
    figures = ["p1 agent-carr 1,-4", "p2 izumi-samurai/1 1,-5", "p2 izumi-samurai/2 2,-5"]
    state = at_turn(figures, p1="agent-carr", p2="izumi-samurai")
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [-1, -3]})
    assert isinstance(events[0], MoveDeclared) and set(events[0].strikers) == {"izumi-samurai/1", "izumi-samurai/2"}
    assert awaited(state) == ("p2",) and state.due[0].purpose == "leaving"
    state, events = play(state, {"type": "roll", "player": "p2", "values": [2]},
                         {"type": "roll", "player": "p2", "values": [6]})
    carr = fig(state, "p1", "agent-carr")
    assert carr.wounds == 1 and carr.hex == (-1, -3)


def test_s4_an_engaged_figure_attacks_only_what_it_is_engaged_with():
    figures = ["p1 marro-warriors/1 0,-4", "p2 izumi-samurai/1 0,-5", "p2 izumi-samurai/2 3,-5"]
    state = at_turn(figures, p1="marro-warriors", p2="izumi-samurai")
    refused(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1", "target": "izumi-samurai/2"},
            "§4", "engaged")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1",
                                 "target": "izumi-samurai/1"})
    declared = events[0]
    assert isinstance(declared, AttackDeclared) and declared.engaged and declared.sight is None


def test_s5_height_bonus_and_master_wounds_the_issue_example():
    state = at_turn(["p1 grimnak 0,-2+1,-2", "p2 agent-carr 0,-3 w2"], p1="grimnak", p2="agent-carr")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr"})
    declared = events[0]
    assert isinstance(declared, AttackDeclared) and (declared.base, declared.height_bonus, declared.dice) == (4, 1, 5)
    assert declared.targets[0].dice == 4  # the defender stands lower: no bonus
    state, events = play(state, {"type": "roll", "player": "p1", "values": [1, 2, 3, 4, 6]},
                         {"type": "roll", "player": "p2", "values": [4, 6, 6, 6]})
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert (resolved.skulls, resolved.shields, resolved.wounds, resolved.destroyed) == (3, 1, 2, True)
    assert any(isinstance(e, FigureDestroyed) and e.by == "grimnak" for e in events)


def test_s5_basic_game_more_skulls_than_shields_destroys():
    state = at_turn(["p1 agent-carr 0,-3", "p2 sgt-drake 1,-3"], p1="agent-carr", p2="sgt-drake", game="basic")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "agent-carr", "target": "sgt-drake"},
                         {"type": "roll", "player": "p1", "values": [1, 5, 6]},
                         {"type": "roll", "player": "p2", "values": [6, 6, 6]})
    assert fig(state, "p2", "sgt-drake").status == "destroyed"


def test_s5_range_is_counted_in_hexes_ignoring_levels():
    figures = ["p1 marro-warriors/1 -3,-2", "p2 izumi-samurai/1 4,-2"]
    state = at_turn(figures, p1="marro-warriors", p2="izumi-samurai")
    refused(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1", "target": "izumi-samurai/1"},
            "§5", "out_of_range")


def test_r1_line_of_sight_blocked_by_the_hill_is_refused_in_a_sealed_game():
    figures = ["p1 marro-warriors/1 -2,0", "p2 izumi-samurai/1 2,0"]
    state = at_turn(figures, p1="marro-warriors", p2="izumi-samurai", mode="sealed")
    refused(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1", "target": "izumi-samurai/1"},
            "R1", "no_line_of_sight")
    refused(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1", "target": "izumi-samurai/1",
                    "referee": True}, "R1", "sealed_sight")


def test_r1_table_mode_the_referee_decides_and_the_engine_answer_is_kept():
    figures = ["p1 marro-warriors/1 -2,0", "p2 izumi-samurai/1 2,0"]
    state = at_turn(figures, p1="marro-warriors", p2="izumi-samurai")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "marro-warriors/1",
                                 "target": "izumi-samurai/1", "referee": True})
    declared = events[0]
    assert isinstance(declared, AttackDeclared) and declared.sight is False and declared.referee is True


def test_s6_kelda_heals_a_hero_once_and_a_squad_figure_cannot_enter_it():
    figures = ["p1 agent-carr -2,3 w3", "p1 izumi-samurai/1 -3,2", "p2 marro-warriors/1 4,-5"]
    state = at_turn(figures, p1="agent-carr", p2="marro-warriors")
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [-3, 3]})
    taken = next(e for e in events if isinstance(e, GlyphTaken))
    assert taken.glyph == "kelda" and taken.healed == 3 and fig(state, "p1", "agent-carr").wounds == 0
    assert (-3, 3) in state.used_glyphs
    other = at_turn(figures, p1="izumi-samurai", p2="marro-warriors")
    assert (-3, 3) not in destinations(other, fig(other, "p1", "izumi-samurai/1"))


def test_r2_a_permanent_glyph_acts_while_a_figure_stands_on_it():
    figures = ["p1 sgt-drake 0,0", "p1 agent-carr 0,-1", "p2 izumi-samurai/1 1,-2"]
    state = at_turn(figures, p1="agent-carr", p2="izumi-samurai")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "agent-carr",
                                 "target": "izumi-samurai/1"})
    declared = events[0]
    assert isinstance(declared, AttackDeclared) and declared.glyph_bonus == 1  # Astrid under Sgt. Drake


def test_s7_berserker_charge_moves_the_squad_again_on_15_or_more():
    figures = ["p1 tarn-vikings/1 -1,-4", "p2 agent-carr 0,5"]
    state = at_turn(figures, p1="tarn-vikings", p2="agent-carr")
    refused(state, {"type": "charge", "player": "p1", "value": 17}, "§7", "move_first")
    state, _ = play(state, {"type": "move", "player": "p1", "figure": "tarn-vikings/1", "to": [-1, -3]})
    state, events = play(state, {"type": "charge", "player": "p1", "value": 17})
    assert isinstance(events[-1], ChargeResolved) and events[-1].again
    state, _ = play(state, {"type": "move", "player": "p1", "figure": "tarn-vikings/1", "to": [-2, -2]})
    state, events = play(state, {"type": "charge", "player": "p1", "value": 14})
    assert not events[-1].again
    refused(state, {"type": "move", "player": "p1", "figure": "tarn-vikings/1", "to": [-3, -1]}, "§3", "already_moved")


def test_s7_a_figure_with_two_attack_powers_uses_both():
    state = at_turn(["p1 grimnak 0,-2+1,-2", "p2 agent-carr 0,-3"], p1="grimnak", p2="agent-carr")
    state, _ = play(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr"},
                    {"type": "roll", "player": "p1", "values": [6, 6, 6, 6, 6]},
                    {"type": "roll", "player": "p2", "values": [6, 6, 6, 6]})
    refused(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr"}, "§5",
            "already_attacked")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr",
                                 "special": "chomp"})
    declared = events[0]
    assert isinstance(declared, AttackDeclared) and declared.special == "chomp" and declared.height_bonus == 0
    assert declared.dice == 3


def test_s7_a_grenade_strikes_the_figures_around_and_is_used_once():
    figures = ["p1 airborne-elite/1 0,-5", "p2 izumi-samurai/1 0,-2", "p2 izumi-samurai/2 1,-2",
               "p2 izumi-samurai/3 3,-5"]
    state = at_turn(figures, p1="airborne-elite", p2="izumi-samurai", mode="sealed")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "airborne-elite/1",
                                 "target": "izumi-samurai/1", "special": "grenade"})
    declared = events[0]
    assert isinstance(declared, AttackDeclared)
    assert [t.figure for t in declared.targets] == ["izumi-samurai/1", "izumi-samurai/2"]
    assert sum(isinstance(e, AttackResolved) for e in events) == 2
    state, _ = play(state, {"type": "end_turn", "player": "p1"}, {"type": "end_turn", "player": "p2"})
    refused(state, {"type": "attack", "player": "p1", "figure": "airborne-elite/1", "target": "izumi-samurai/3",
                    "special": "grenade"}, "§7", "special_spent")


def test_s8_the_game_ends_when_no_opposing_figure_remains_at_the_end_of_a_turn():
    state = at_turn(["p1 grimnak 0,-2+1,-2", "p2 agent-carr 0,-3"], p1="grimnak", p2="agent-carr")
    state, _ = play(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr"},
                    {"type": "roll", "player": "p1", "values": [1, 1, 1, 1, 1]},
                    {"type": "roll", "player": "p2", "values": [6, 6, 6, 6]})
    assert state.phase == "turn"  # checked at the end of the turn
    state, events = play(state, {"type": "end_turn", "player": "p1"})
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason == "annihilation" and ended.winner == "p1"
    assert SYSTEM.outcome(state).winners == ("p1",)


def test_s8_the_round_limit_gives_the_game_to_more_points_on_the_map():
    state = at_turn(["p1 grimnak 0,-2+1,-2", "p2 agent-carr 0,5"], p1="grimnak", p2="agent-carr", max_rounds=1)
    for _ in range(6):
        state, events = play(state, {"type": "end_turn", "player": awaited(state)[0]})
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason == "rounds" and ended.winner == "p1"
    assert ended.points == {"p1": 120, "p2": 100}


def test_s5_dice_in_a_table_game_are_checked():
    state = at_turn(["p1 grimnak 0,-2+1,-2", "p2 agent-carr 0,-3"], p1="grimnak", p2="agent-carr")
    state, _ = play(state, {"type": "attack", "player": "p1", "figure": "grimnak", "target": "agent-carr"})
    refused(state, {"type": "roll", "player": "p1", "values": [1, 2, 3]}, "§5", "dice_count")
    refused(state, {"type": "roll", "player": "p1", "values": [1, 2, 3, 4, 7]}, "§1", "die_value")
    refused(state, {"type": "roll", "player": "p2", "values": [1, 2, 3, 4]}, "§5", "dice_due")
    refused(state, {"type": "end_turn", "player": "p1"}, "§5", "dice_due")


def test_s5_no_die_is_entered_in_a_sealed_game_and_moves_come_before_attacks():
    state = at_turn(["p1 agent-carr 0,-3", "p2 sgt-drake 1,-3", "p2 izumi-samurai/1 0,5"], p1="agent-carr",
                    p2="sgt-drake", mode="sealed")
    refused(state, {"type": "roll", "player": "p1", "values": [3]}, "§5", "sealed_dice")
    state, events = play(state, {"type": "attack", "player": "p1", "figure": "agent-carr", "target": "sgt-drake"})
    assert "attack_resolved" in tags(events)
    refused(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [0, -4]}, "§2", "attack_made")


def test_s7_card_texts_are_effects_checked_for_consistency():
    state = at_turn(["p1 sgt-drake 0,-3", "p2 agent-carr 0,5"], p1="sgt-drake", p2="agent-carr")
    refused(state, {"type": "effect", "player": "p1", "card": "grimnak", "change": "wound", "figure": "agent-carr",
                    "amount": 1}, "§7", "card_not_in_play")
    refused(state, {"type": "effect", "player": "p1", "card": "sgt-drake", "change": "heal", "figure": "agent-carr",
                    "amount": 1}, "§7", "effect_amount")
    state, events = play(state, {"type": "effect", "player": "p1", "card": "sgt-drake", "change": "move",
                                 "figure": "sgt-drake", "to": [0, -2], "text": "Grapple Gun 25"})
    assert fig(state, "p1", "sgt-drake").hex == (0, -2)
    state, events = play(state, {"type": "effect", "player": "p1", "card": "sgt-drake", "change": "wound",
                                 "figure": "agent-carr", "amount": 2})
    assert any(isinstance(e, FigureWounded) and e.total == 2 for e in events)


def test_position_format_is_checked():
    import pytest

    from engine.errors import SetupError
    with pytest.raises(SetupError) as caught:
        start(position_setup(["p1 grimnak 0,-2", "p2 agent-carr 0,5"]))
    assert caught.value.rule == "§3"
    with pytest.raises(SetupError):
        start(position_setup(["p1 agent-carr 0,-3", "p2 sgt-drake 0,-3"]))
    data = state_to_builtins(start(position_setup(["p1 agent-carr 0,-3 w2", "p2 sgt-drake 0,5"], round=3)))
    assert data["round"] == 3 and data["figures"][0]["wounds"] == 2 and data["phase"] == "markers"


def _cliff_game(levels: dict[tuple[int, int], int]):
    """A table game on a map of our own (the game carries its map): a row of hexes with the given levels."""
    import msgspec

    from events.heroscape import BoardRecord
    setup = position_setup(["p1 agent-carr 0,-3", "p2 sgt-drake 0,5"])
    started = SYSTEM.start(setup)[0]
    cells = tuple((q, r, level, "grass", None) for (q, r), level in sorted(levels.items()))
    board = BoardRecord(name="cliff", cells=cells, obstacles=(), start_zones={"p1": ((0, 0),), "p2": ((3, 0),)})
    figures = (msgspec.structs.replace(started.position.figures[0], hex=(0, 0)),
               msgspec.structs.replace(started.position.figures[1], hex=(3, 0)))
    started = msgspec.structs.replace(started, board=board,
                                      position=msgspec.structs.replace(started.position, figures=figures))
    state = SYSTEM.fold([started])
    state, _ = play(state, markers("p1", "agent-carr"), markers("p2", "sgt-drake"),
                    {"type": "roll", "player": "p1", "values": [20]}, {"type": "roll", "player": "p2", "values": [1]})
    return state


def test_s3_falling_a_drop_of_height_plus_ten_rolls_two_dice_each_skull_a_wound():
    state = _cliff_game({(0, 0): 20, (1, 0): 1, (2, 0): 1, (3, 0): 1})
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [1, 0]})
    declared = events[0]
    assert isinstance(declared, MoveDeclared) and declared.fall_dice == 2
    assert state.due[0].purpose == "falling" and state.due[0].count == 2 and awaited(state) == ("p1",)
    state, events = play(state, {"type": "roll", "player": "p1", "values": [1, 5]})
    assert [e.wounds for e in events if isinstance(e, FigureWounded)] == [1]
    assert fig(state, "p1", "agent-carr").hex == (1, 0) and fig(state, "p1", "agent-carr").wounds == 1


def test_s3_the_way_taken_avoids_a_fall_when_the_move_allows_it():
    # from level 6 straight down to level 1 is a drop of 5 (one die for a height-5 figure); round by the 3s none
    state = _cliff_game({(0, 0): 6, (1, 0): 1, (0, 1): 3, (1, 1): 1, (2, 0): 1, (3, 0): 1})
    state, events = play(state, {"type": "move", "player": "p1", "figure": "agent-carr", "to": [1, 0]})
    declared = events[0]
    assert isinstance(declared, MoveDeclared) and declared.fall_dice == 0 and declared.path == ((0, 1), (1, 0))
    assert not state.due
