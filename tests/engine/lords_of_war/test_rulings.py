"""One test (at least) per ruling R1–R13 of the digest, named for it."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.lords_of_war import fold, start
from engine.lords_of_war.catalogue import DEFAULT_TABLE
from engine.lords_of_war.prng import SHUFFLE_NAME, SplitMix64, shuffle
from engine.lords_of_war.rules import destroyed_units
from events.lords_of_war import BerserkerMoved, Eliminated, ExtraTurnGranted, GameEnded, HandRevealed, Placed
from tests.engine.lords_of_war.given import act, changed, given, play, state, types

GENERAL = "orcs/gonke-longtooth"  # N5 NE5 NW5, defence 6
KROD = "dwarves/krod-klouthammer"  # dwarf general: N5 W3 NW4, defence 7
SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1, defence 3
SHANKER_2 = "orcs/goblin-shanker-2"  # SE1 S4
SPIKEMAN_1 = "orcs/goblin-spikeman-1"  # NE1 E1 SE1 (spearman)
DEATHBRINGER_1 = "orcs/orc-deathbringer-1"  # berserker N5 NE3 NW3, defence 2
DEATHBRINGER_2 = "orcs/orc-deathbringer-2"
CATAPULT = "orcs/orc-catapult"
WARHOG = "orcs/orc-warhog-1"  # cavalry N2 NE3 E4 SE3, defence 4
SLUGGER = "dwarves/dwarf-slugger-1"  # N3
SLUGGER_W = "dwarves/dwarf-slugger-3"  # W3
MARAUDER_1 = "dwarves/dwarf-marauder-1"  # N4 NE2 E1
IMPALER = "dwarves/dwarf-impaler-1"  # spearman N1 NE1 E1 SE1 NW1
DOWAGER_1 = "dwarves/dwarf-dowager-1"  # berserker N5, defence 2
DOWAGER_3 = "dwarves/dwarf-dowager-3"  # berserker S5, defence 2

TWO_PLAYERS = {"players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "dwarves"}]}


def refused(s, code: str, rule: str | None = None, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert info.value.code == code, info.value
    if rule is not None:
        assert info.value.rule == rule
    return info.value


# -- R1 R2 R3: the challenge and the shuffle --------------------------------------------------------------


def test_r1_challenge_squares_are_c3_for_p1_and_e4_for_p2():
    s = fold(given())
    card = s.hands[0][1]
    refused(s, "challenge_square", "R1", type="place", player="p1", card=card, square="D3")
    s = play(s, type="place", player="p1", card=card, square="C3")
    s = play(s, type="draw", player="p1")
    assert (s.active, s.phase, s.turn, s.challenge) == (1, "deploy", 0, True)
    refused(s, "challenge_square", "R1", type="place", player="p2", card=s.hands[1][0], square="D5")
    s = play(s, type="place", player="p2", card=s.hands[1][0], square="E4")
    s = play(s, type="draw", player="p2")
    assert (s.active, s.phase, s.turn, s.challenge) == (0, "deploy", 1, False)
    assert s.hand_counts == (6, 6) and len(s.board) == 2


def test_r1_challenge_squares_in_the_unbounded_variant_are_2_2_and_4_3():
    s = fold(given(variant={"unbounded": True}))
    s = play(s, type="place", player="p1", card=s.hands[0][0], square="2,2")
    s = play(s, type="draw", player="p1")
    refused(s, "challenge_square", "R1", type="place", player="p2", card=s.hands[1][0], square="3,3")
    assert types(act(s, type="place", player="p2", card=s.hands[1][0], square="4,3")) == ["placed"]


def test_r2_same_seed_same_decks_everywhere():
    a = start({**TWO_PLAYERS, "seed": 42})
    b = start({**TWO_PLAYERS, "seed": 42})
    c = start({**TWO_PLAYERS, "seed": 43})
    assert a == b and a[1:] != c[1:]
    assert a[0].shuffle == SHUFFLE_NAME == "splitmix64-fisher-yates/1"
    assert fold(a).decks == fold(b).decks
    # pinned: a change to the generator or the shuffle would change every stored game's hidden deck order
    assert a[1].cards == ("orcs/gonke-longtooth", "orcs/orc-deathbringer-2", "orcs/goblin-shanker-4",
                          "orcs/orc-catapult", "orcs/goblin-spikeman-2", "orcs/orc-warhog-2")


def test_r2_splitmix64_matches_the_reference_vectors():
    rng = SplitMix64(1234567)  # Vigna's splitmix64.c
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert shuffle(list(range(5)), SplitMix64(7)) == shuffle(list(range(5)), SplitMix64(7))


def test_r3_no_shots_and_no_elimination_in_the_challenge():
    s = fold(given(hands={"p1": [CATAPULT, GENERAL]}))
    refused(s, "no_shots_in_challenge", "R3", type="place", player="p1", card=CATAPULT, square="C3",
            shots=[{"shooter": "C3", "target": "E4"}])
    assert types(act(s, type="place", player="p1", card=CATAPULT, square="C3")) == ["placed"]


# -- R4 -------------------------------------------------------------------------------------------------


# p2's Shanker in the corner A6 has every neighbour filled by p1's units; p1 holds no support unit.
R4_BOARD = [("A6", "dwarves/dwarf-slugger-1", "p2"), ("A5", SPIKEMAN_1, "p1"), ("B5", SHANKER_1, "p1"),
            ("B6", "orcs/goblin-spikeman-2", "p1")]
R4_HAND = [GENERAL, DEATHBRINGER_1, "orcs/orc-ravager-1", "orcs/orc-butcher", WARHOG, "orcs/orc-ravager-2"]


def test_r4_forced_placement_next_to_a_friend_when_no_square_touches_an_enemy():
    s = state(R4_BOARD, hands={"p1": R4_HAND})
    events = act(s, type="place", player="p1", card=GENERAL, square="C4")
    assert events[:2] == (HandRevealed(player="p1", cards=tuple(R4_HAND)),
                          Placed(player="p1", card=GENERAL, square="C4", turn=1, forced=True, basis="forced_friendly"))
    error = refused(s, "forced_placement", "R4", type="place", player="p1", card=GENERAL, square="E2")
    assert "adjacent to a friendly unit" in error.message


# -- R5 R6 ----------------------------------------------------------------------------------------------


def test_r5_the_unit_just_placed_shoots_in_the_same_deploy_phase():
    s = state([("B2", SHANKER_1, "p1"), ("D4", SLUGGER, "p2")], hands={"p1": [CATAPULT, GENERAL]})
    events = act(s, type="place", player="p1", card=CATAPULT, square="C2", shots=[{"shooter": "C2", "target": "D4"}])
    assert types(events) == ["placed", "shot", "eliminated"]


def test_r6_incremental_check_equals_the_full_check():
    s = state([("C3", DEATHBRINGER_1, "p1"), ("D4", "dwarves/dwarf-marauder-2", "p2"), ("F6", KROD, "p2"),
               ("A1", SHANKER_1, "p1")], hands={"p1": [CATAPULT, GENERAL]})
    board = dict(s.board)
    from engine.lords_of_war import geometry as geo

    c2 = geo.parse("C2", False)
    d4 = geo.parse("D4", False)
    board[c2] = (CATAPULT, 0)
    shots = {d4: [(c2, CATAPULT, 0, 4)]}
    candidates = {c2, *(c2 + d for d in geo.NEIGHBOUR_DELTAS), d4}
    full = destroyed_units(board, shots, None, DEFAULT_TABLE)
    assert destroyed_units(board, shots, candidates, DEFAULT_TABLE) == full
    assert [k for k, _, _ in destroyed_units(board, shots, None, DEFAULT_TABLE)] == [d4]


# -- R7 R8 ----------------------------------------------------------------------------------------------


def test_r7_reinforce_is_one_card_even_when_the_hand_is_short():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [GENERAL, SHANKER_2, WARHOG]})
    s = play(s, type="place", player="p1", card=SHANKER_2, square="B4")  # SE1 on the Slugger
    s = play(s, type="draw", player="p1")
    assert s.hand_counts[0] == 3  # 3 - 1 + 1, not back to 6


def test_r7_deck_empty_and_nothing_to_recall_skips_the_reinforcement():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [GENERAL, SHANKER_2]})
    s = changed(s, decks=((), s.decks[1]), deck_counts=(0, s.deck_counts[1]))
    events = act(s, type="place", player="p1", card=SHANKER_2, square="B4")
    assert types(events) == ["placed", "reinforce_skipped"]  # the only p1 unit was just placed
    after = fold(events, s)
    assert (after.active, after.phase, after.hand_counts[0]) == (1, "deploy", 1)
    placed_only = fold(events[:1], s)
    refused(placed_only, "deck_empty", "R7", type="draw", player="p1")


def test_r8_a_player_who_must_deploy_with_an_empty_hand_loses():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [GENERAL, SHANKER_2]})
    s = changed(s, hands=(s.hands[0], ()), hand_counts=(2, 0),
                decks=(s.decks[0], ()), deck_counts=(s.deck_counts[0], 0))
    s = play(s, type="place", player="p1", card=SHANKER_2, square="C4")
    events = act(s, type="draw", player="p1")
    assert types(events) == ["card_drawn", "game_ended"]
    assert events[-1] == GameEnded(winner="p1", reason="exhausted")


# -- R9 R10: extra turn and simultaneous victory -------------------------------------------------------------

# p2's general Krod (defence 7) on D4; p1's Shanker-2 on D5 points S (4) at it.
KROD_BOARD = [("D4", KROD, "p2"), ("D5", SHANKER_2, "p1")]


def test_r9_destroying_the_enemy_general_grants_the_active_player_another_turn():
    s = state(KROD_BOARD, hands={"p1": [GENERAL, WARHOG]})
    events = act(s, type="place", player="p1", card=GENERAL, square="C3")  # NE5 + S4 = 9 > 7
    assert types(events) == ["placed", "eliminated", "extra_turn_granted"]
    assert events[-1] == ExtraTurnGranted(player="p1")
    s = play(fold(events, s), type="draw", player="p1")
    assert (s.active, s.turn, s.phase, s.extra_turn) == (0, 2, "deploy", False)


def test_r9_both_generals_destroyed_together_no_extra_turn():
    s = state(KROD_BOARD + [("E4", MARAUDER_1, "p2")], hands={"p1": [GENERAL, WARHOG]})
    events = act(s, type="place", player="p1", card=GENERAL, square="D3")  # Krod 9 > 7, Gonke 5 + 2 = 7 > 6
    destroyed = {u.card for e in events if isinstance(e, Eliminated) for u in e.units}
    assert {GENERAL, KROD} <= destroyed
    assert "extra_turn_granted" not in types(events)


def test_r9_losing_your_own_general_on_your_turn_gives_nobody_an_extra_turn():
    s = state([("D4", KROD, "p2"), ("E4", MARAUDER_1, "p2")], hands={"p1": [GENERAL, WARHOG]})
    events = act(s, type="place", player="p1", card=GENERAL, square="D3")
    assert [u.card for u in events[1].units] == [GENERAL, MARAUDER_1]
    assert "extra_turn_granted" not in types(events)
    s = play(fold(events, s), type="draw", player="p1")
    assert s.active == 1


def test_r10_both_reach_victory_in_one_elimination_the_active_player_wins():
    # p1's Deathbringer destroys the Marauder and is destroyed by the Slugger above it: 20 kills each
    s = state([("D3", MARAUDER_1, "p2"), ("D5", SLUGGER, "p2")], hands={"p1": [DEATHBRINGER_2, GENERAL]},
              kills={"p1": {"total": 19, "commanders": 0}, "p2": {"total": 19, "commanders": 0}})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_2, square="D4")
    assert events[1].kills_to == {"p1": 1, "p2": 1}
    assert events[-1] == GameEnded(winner="p1", reason="kills")


# -- R11 R12 R13: intermediate rules ---------------------------------------------------------------------


def cavalry_state(enemy: str, intermediate: bool = True):
    # p1's Warhog on C2 is engaged by the p2 unit on C3, whose arrow points (board-)south at it
    return state([("C2", WARHOG, "p1"), ("C3", enemy, "p2")], hands={"p1": [SPIKEMAN_1, CATAPULT]},
                 variant={"intermediate": intermediate})


def test_r11_engaged_cavalry_may_be_recalled_unless_engaged_by_a_spearman():
    s = play(cavalry_state(SLUGGER), type="place", player="p1", card=SPIKEMAN_1, square="B1")
    assert types(act(s, type="recall", player="p1", square="C2")) == ["recalled"]
    core = play(cavalry_state(SLUGGER, intermediate=False), type="place", player="p1", card=SPIKEMAN_1, square="B1")
    refused(core, "recall_engaged", "§5.3", type="recall", player="p1", square="C2")
    speared = play(cavalry_state(IMPALER), type="place", player="p1", card=SPIKEMAN_1, square="B1")
    error = refused(speared, "recall_engaged", "§8", type="recall", player="p1", square="C2")
    assert "spearman" in error.message


def test_r11_cavalry_involved_in_a_kill_may_not_be_recalled():
    s = play(cavalry_state(SLUGGER), type="place", player="p1", card=CATAPULT, square="B1",
             shots=[{"shooter": "B1", "target": "C3"}])  # Warhog 2 + shot 4 > 3
    assert s.kills[0] == 1
    refused(s, "recall_involved", "R11", type="recall", player="p1", square="C2")


def test_r11_cavalry_may_not_be_recalled_the_turn_it_was_placed():
    s = state([("C3", SLUGGER, "p2")], hands={"p1": [WARHOG, CATAPULT]}, variant={"intermediate": True})
    s = play(s, type="place", player="p1", card=WARHOG, square="B2")
    refused(s, "recall_just_placed", "§5.3", type="recall", player="p1", square="B2")


def test_r12_berserker_moves_to_the_unit_it_dealt_most_damage():
    s = state([("D4", SLUGGER_W, "p2"), ("E4", DOWAGER_1, "p2")], hands={"p1": [DEATHBRINGER_1, GENERAL]},
              variant={"intermediate": True})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_1, square="D3")  # N5 on D4, NE3 on E4
    assert [u.square for u in events[1].units] == ["D4", "E4"]
    assert events[2] == BerserkerMoved(player="p1", card=DEATHBRINGER_1, origin="D3", target="D4")


def test_r12_berserker_ties_go_to_the_first_direction_from_north():
    s = state([("C4", DOWAGER_3, "p2"), ("E4", DOWAGER_1, "p2")], hands={"p1": [DEATHBRINGER_1, GENERAL]},
              variant={"intermediate": True})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_1, square="D3")  # NE3 and NW3: NE first
    assert events[2] == BerserkerMoved(player="p1", card=DEATHBRINGER_1, origin="D3", target="E4")


def test_r12_berserkers_do_not_move_in_the_core_game():
    s = state([("C4", DOWAGER_3, "p2"), ("E4", DOWAGER_1, "p2")], hands={"p1": [DEATHBRINGER_1, GENERAL]})
    assert "berserker_moved" not in types(act(s, type="place", player="p1", card=DEATHBRINGER_1, square="D3"))


def test_r12_an_engaged_berserker_does_not_move():
    # the Marauder on E3 points E1 (p2's frame: board west) at D3: the Deathbringer survives it but is engaged
    s = state([("D4", SLUGGER_W, "p2"), ("E3", MARAUDER_1, "p2")], hands={"p1": [DEATHBRINGER_1, GENERAL]},
              variant={"intermediate": True})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_1, square="D3")
    assert types(events) == ["placed", "eliminated"]
    assert [u.square for u in events[1].units] == ["D4"]


# R13 scenario: p1's Deathbringer on C3 (NE3 at D4) and p2's Dowager-3 on D2 (S5 = board north, at D3).
R13_BOARD = [("C3", DEATHBRINGER_1, "p1"), ("D4", SLUGGER_W, "p2"), ("D2", DOWAGER_3, "p2")]


def test_r13_berserkers_move_active_player_first_then_elimination_repeats():
    s = state(R13_BOARD, hands={"p1": [SHANKER_1, GENERAL]}, variant={"intermediate": True})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="D3")
    assert types(events) == ["placed", "eliminated", "berserker_moved", "berserker_moved", "eliminated",
                             "berserker_moved"]
    first, p1_move, p2_move, second, last_move = events[1:]
    assert [u.square for u in first.units] == ["D3", "D4"] and first.round == 1
    assert p1_move == BerserkerMoved(player="p1", card=DEATHBRINGER_1, origin="C3", target="D4")  # active first
    assert p2_move == BerserkerMoved(player="p2", card=DOWAGER_3, origin="D2", target="D3")
    assert second.round == 2 and [u.card for u in second.units] == [DEATHBRINGER_1]  # later kills count
    assert last_move == BerserkerMoved(player="p2", card=DOWAGER_3, origin="D3", target="D4")
    after = fold(events, s)
    assert after.kills == (1, 2)


def test_r13_a_berserker_whose_square_is_taken_stays():
    s = state([("C3", DEATHBRINGER_1, "p1"), ("D4", SLUGGER_W, "p2")], hands={"p1": [DEATHBRINGER_1, GENERAL]},
              variant={"intermediate": True})
    events = act(s, type="place", player="p1", card=DEATHBRINGER_1, square="D3")  # both hit D4: 3 + 5
    moves = [e for e in events if isinstance(e, BerserkerMoved)]
    assert moves == [BerserkerMoved(player="p1", card=DEATHBRINGER_1, origin="C3", target="D4")]
