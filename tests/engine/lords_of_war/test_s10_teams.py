"""§10, three and more players: the team rules (4 or 6 players, R14) and the three-player game (R15, R17-R19).

Every rule of §10 by name. Squares of team games are unbounded (``x,y``); p1, p3, p5 face as p1 (N = y + 1),
p2, p4, p6 as p2 (N = y - 1). The three-player game is played on the mat unless the variant says unbounded.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.errors import RuleError, SetupError
from engine.lords_of_war import SYSTEM, fold, play_bot_game, start, state_to_builtins
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.actions import parse_action
from engine.lords_of_war.catalogue import DEFAULT_TABLE
from engine.lords_of_war.prng import shuffled_decks
from engine.lords_of_war.rules import decide, is_engaged
from engine.system import Outcome, Seat
from events.lords_of_war import (
    Attacker,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    Placed,
    Recalled,
    ReinforceSkipped,
    Shot,
)
from tests.engine.lords_of_war.teams_given import setup, state

SHANKER_1 = "orcs/goblin-shanker-1"  # N4 NE1, defence 3
SHANKER_4 = "orcs/goblin-shanker-4"  # N4 NW1, defence 3
BOW_PEST = "orcs/goblin-bow-pest"  # support (ranged) N2 NE1 NW1, defence 3, ranged 2
CATAPULT = "orcs/orc-catapult"  # support (ranged) E1 W1, defence 4, ranged 4, grid dx -1..1, dy 1..3
GONKE = "orcs/gonke-longtooth"  # the orc general: N5 NE5 NW5, defence 6
SHARPSHOOTER = "dwarves/dwarf-sharpshooter"  # no arrows, defence 4
SLUGGER = "dwarves/dwarf-slugger-1"  # N3, defence 3
KROD = "dwarves/krod-klouthammer"  # the dwarf general: N5 W3 NW4, defence 7
ELF_GENERAL = "elves/erendrial-aegis"
UNDEAD_GENERAL = "undead/azul-the-bygone-king"


def act(s, **action):
    return decide(s, parse_action(action))


def play(s, **action):
    return fold(act(s, **action), s)


def refused(s, code: str, rule: str, **action) -> RuleError:
    with pytest.raises(RuleError) as info:
        act(s, **action)
    assert (info.value.code, info.value.rule) == (code, rule), info.value
    return info.value


def setup_refused(chosen) -> SetupError:
    with pytest.raises(SetupError) as info:
        start(chosen)
    return info.value


# -- who plays: seats, teams, armies ----------------------------------------------------------------------------


def test_s10_four_or_six_players_play_the_team_rules_and_say_so():
    for seats in (4, 6):
        no_teams = setup(seats, variant={"teams": False})
        assert (setup_refused(no_teams).code, setup_refused(no_teams).rule) == ("invalid_variant", "§10")
        assert len(start(setup(seats))) == 1 + seats  # game_started and a hand per seat
    five = setup(4)
    five["players"].append({"id": "p5", "name": "P5", "army": "elves"})
    assert (setup_refused(five).code, setup_refused(five).rule) == ("invalid_setup", "§10")
    two = setup(4)
    two["players"] = two["players"][:2]
    assert setup_refused(two).rule == "§10"  # teams with two players


def test_s10_teams_are_odd_seats_against_even_seats():
    assert SYSTEM.seats(setup(4)) == tuple(Seat(id=f"p{i + 1}", index=i, team=("odd", "even")[i % 2]) for i in range(4))
    assert [s.team for s in SYSTEM.seats(setup(6))] == ["odd", "even"] * 3
    data = state_to_builtins(state(6))
    assert data["teams"] == {"odd": ["p1", "p3", "p5"], "even": ["p2", "p4", "p6"]}
    assert [(p["team"], p["frame"]) for p in data["players"]] == [("odd", 0), ("even", 1)] * 3


def test_s10_team_games_have_no_mat_the_unbounded_geometry():
    assert state(4).unbounded and state(6).unbounded
    bounded = setup(4, variant={"unbounded": False})
    assert (setup_refused(bounded).code, setup_refused(bounded).rule) == ("invalid_variant", "§10")


@pytest.mark.parametrize(("seats", "cards", "commanders"), [(3, 20, 4), (4, 30, 7), (6, 50, 9)])
def test_s10_victory_thresholds_by_number_of_players(seats, cards, commanders):
    variant = state(seats).variant
    assert (variant.kill_target, variant.command_target) == (cards, commanders)
    assert state(seats, variant={"kill_target": 12, "command_target": 3}).variant.kill_target == 12  # §7 variant
    enemies = 1 if seats == 3 else seats // 2  # a team of two or three faces that many armies
    too_many = setup(seats, variant={"kill_target": 36 * enemies + 1})
    assert (setup_refused(too_many).code, setup_refused(too_many).rule) == ("invalid_variant", "§7")


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_s10_games_of_three_to_six_players_are_recorded_sealed_or_at_the_table(seats):
    for mode in ("sealed", "table"):  # §11 (table: tests/engine/lords_of_war/test_s11_table_teams.py)
        started = start(setup(seats, variant={"mode": mode}))
        assert started[0].variant.mode == mode and len(started) == seats + 1


def test_s10_each_team_player_has_an_army_and_a_hand_of_six():
    s = state(4, armies=("orcs", "dwarves", "elves", "undead"))
    assert s.hand_counts == (6, 6, 6, 6) and s.deck_counts == (30, 30, 30, 30)
    assert [s.hands[i][0] for i in range(4)] == [GONKE, KROD, ELF_GENERAL, UNDEAD_GENERAL]  # general + 5 each


def test_s10_three_players_the_team_shares_one_army():
    assert [s.team for s in SYSTEM.seats(setup(3))] == ["solo", "allies", "allies"]
    other = setup(3, armies=("orcs", "dwarves", "elves"))
    assert (setup_refused(other).code, setup_refused(other).rule) == ("invalid_army", "§10")
    flagged = setup(3, variant={"teams": True})  # the flag may be given: §10's variant
    assert len(SYSTEM.seats(flagged)) == 3 and len(start(flagged)) == 4
    left_out = setup(3)
    del left_out["players"][2]["army"]  # p3's army may be left out: it is p2's
    assert start(left_out)[0].players[2].cards == start(setup(3))[0].players[1].cards


def test_s10_three_players_solo_hand_seven_team_hands_three_general_between_them():
    s = state(3)
    assert s.hand_counts == (7, 3, 3)
    assert s.hands[0][0] == GONKE and KROD not in s.hands[1] + s.hands[2]
    assert s.middle == (KROD,)  # R15
    assert s.deck_counts == (36 - 7, 36 - 1 - 3 - 3)  # the solo deck, the team's one deck
    data = state_to_builtins(s)
    assert data["middle"] == [KROD] and data["deck"] == {"p1": 29, "p2": 29, "p3": 29}
    team_cards = sorted(s.hands[1] + s.hands[2] + s.decks[1] + s.middle)  # dealt from the one deck in turn
    assert team_cards == sorted(s.armies[1].cards)
    armies = [[c for c in s.armies[i].cards if c not in (GONKE, KROD)] for i in (0, 1)]
    solo_deck, team_deck = shuffled_decks(1, armies)  # R2: one generator, the solo deck first, then the team's
    assert s.hands[0] == (GONKE, *solo_deck[:6]) and s.hands[1] + s.hands[2] == tuple(team_deck[:6])


# -- the challenge and the turn order ------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 6])
def test_r14_challenge_squares_of_the_team_rules(seats):
    s = state(seats)
    squares = ["0,0", "2,2", "4,0", "6,2", "8,0", "10,2"][:seats]
    for i, square in enumerate(squares):
        player = f"p{i + 1}"
        assert s.challenge and s.active == i
        card = s.hands[i][0]
        wrong = refused(s, "challenge_square", "R14", type="place", player=player, card=card, square="1,1")
        assert square in str(wrong)
        s = play(s, type="place", player=player, card=card, square=square)
        s = play(s, type="draw", player=player)
    assert not s.challenge and s.turn == 1 and s.active == 0
    assert [u["owner"] for u in state_to_builtins(s)["board"]] == sorted(
        [f"p{i + 1}" for i in range(seats)], key=lambda p: (int(p[1:]) % 2 == 0, int(p[1:])))  # rows 0 then 2


def test_r17_three_players_challenge_as_two_players_solo_then_team_player_a():
    s = state(3)
    s = play(s, type="place", player="p1", card=s.hands[0][0], square="C3")
    s = play(s, type="draw", player="p1")
    assert s.active == 1
    refused(s, "challenge_square", "R1", type="place", player="p2", card=s.hands[1][0], square="D4")
    s = play(s, type="place", player="p2", card=s.hands[1][0], square="E4")
    s = play(s, type="draw", player="p2")
    assert (s.challenge, s.turn, s.active) == (False, 1, 0)


def _deploy_order(events) -> list[str]:
    """The seats placing a card after the challenge, with '+' after a seat granted an extra turn."""
    out = []
    for e in events:
        if isinstance(e, Placed) and not e.challenge:
            out.append(e.player)
        if isinstance(e, ExtraTurnGranted):
            out.append("+")
    return out


@pytest.mark.parametrize(("armies", "cycle"), [
    (("orcs", "dwarves", "orcs", "dwarves"), ["p1", "p2", "p3", "p4"]),
    (("orcs", "dwarves", "elves", "undead", "templars", "lizardmen"), ["p1", "p2", "p3", "p4", "p5", "p6"]),
    (("orcs", "dwarves", "dwarves"), ["p1", "p2", "p1", "p3"]),  # solo, team player A, solo, team player B
])
def test_s10_turn_order(armies, cycle):
    events = play_bot_game(5, armies)
    order = _deploy_order(events)
    expected_slot = 0
    previous = None
    for entry in order:
        if entry == "+":
            previous = "+"
            continue
        if previous == "+":  # §5.4: the extra turn is the same seat's, the cycle goes on after it
            expected_slot = (expected_slot - 1) % len(cycle)
        assert entry == cycle[expected_slot], (order, entry, expected_slot)
        expected_slot = (expected_slot + 1) % len(cycle)
        previous = entry
    assert len(order) > 2 * len(cycle)


def test_s10_only_the_seat_in_turn_acts():
    s = state(4, [("0,0", SHANKER_1, "p1"), ("5,5", SLUGGER, "p2")], to_move="p2")
    refused(s, "not_your_turn", "§10", type="place", player="p3", card=s.hands[2][0], square="5,5")
    refused(s, "unknown_player", "contract", type="place", player="p5", card=s.hands[1][0], square="5,5")


# -- fighting together -----------------------------------------------------------------------------------------


def test_s10_team_attacks_on_one_enemy_unit_add_up():
    board = [("5,5", SHARPSHOOTER, "p2"), ("6,4", SHANKER_4, "p1"), ("4,4", SHANKER_1, "p3")]
    s = state(4, board, hands={"p1": [SHANKER_1, GONKE]})
    events = act(s, type="place", player="p1", card=SHANKER_1, square="5,4")
    destroyed = next(e for e in events if isinstance(e, Eliminated))
    unit = destroyed.units[0]
    assert (unit.square, unit.owner, unit.damage, unit.defence) == ("5,5", "p2", 6, 4)  # 4 + 1 + 1 > 4
    assert {(a.owner, a.value) for a in unit.attackers} == {("p1", 4), ("p1", 1), ("p3", 1)}
    assert destroyed.kills_to == {"odd": 1}  # a team's kill pile
    after = fold(events, s)
    assert state_to_builtins(after)["kills"]["odd"] == {"total": 1, "commanders": 0}


def test_s10_team_mates_never_attack_each_other():
    board = [("5,5", SHARPSHOOTER, "p2"), ("4,5", BOW_PEST, "p3")]
    s = state(4, board, hands={"p1": [GONKE, SHANKER_1]})
    events = act(s, type="place", player="p1", card=GONKE, square="5,4")  # N5 at 5,5, NW5 at p3's 4,5
    destroyed = [u.square for e in events if isinstance(e, Eliminated) for u in e.units]
    assert destroyed == ["5,5"]
    # a card pointing only at a team-mate is not in contact (§5.1): the team-mate is no enemy
    alone = state(4, [("4,5", BOW_PEST, "p3"), ("9,9", SHARPSHOOTER, "p2")], hands={"p1": [SHANKER_1, GONKE]})
    refused(alone, "contact", "contact", type="place", player="p1", card=SHANKER_1, square="4,4")


def test_s10_a_team_mate_pointing_at_a_unit_does_not_engage_it():
    # p1's general points N at p3's bow pest, which may still shoot on p1's turn (§6: an engaged shooter may not)
    board = [("4,4", GONKE, "p1"), ("4,5", BOW_PEST, "p3"), ("4,7", SLUGGER, "p2"), ("8,8", SHARPSHOOTER, "p2")]
    s = state(4, board, hands={"p1": [SHANKER_1, CATAPULT]})
    assert not is_engaged(s.board, geo.key(4, 5), DEFAULT_TABLE)
    shots = [{"shooter": "4,5", "target": "4,7"}]
    events = act(s, type="place", player="p1", card=SHANKER_1, square="8,7", shots=shots)
    assert Shot(player="p1", shooter_square="4,5", shooter_card=BOW_PEST, target_square="4,7", target_card=SLUGGER,
                value=2) in events


def test_s10_support_unit_placed_next_to_a_team_mates_unit():
    board = [("6,4", SHANKER_4, "p1"), ("5,9", SHARPSHOOTER, "p2")]
    s = state(4, board, to_move="p3", hands={"p3": [BOW_PEST, SHANKER_1]})
    events = act(s, type="place", player="p3", card=BOW_PEST, square="7,3")  # next to p1's unit, no enemy near
    assert events[0] == Placed(player="p3", card=BOW_PEST, square="7,3", turn=1, basis="support")
    refused(s, "contact", "contact", type="place", player="p3", card=SHANKER_1, square="7,3")  # not a support unit


def test_s10_team_mates_shooters_shoot_on_each_team_mates_turn():
    board = [("3,3", CATAPULT, "p3"), ("3,5", SLUGGER, "p2"), ("8,5", SHARPSHOOTER, "p2")]
    s = state(4, board, hands={"p1": [SHANKER_1, GONKE]})
    shots = [{"shooter": "3,3", "target": "3,5"}]
    events = act(s, type="place", player="p1", card=SHANKER_1, square="8,4", shots=shots)
    assert events[1] == Shot(player="p1", shooter_square="3,3", shooter_card=CATAPULT, target_square="3,5",
                             target_card=SLUGGER, value=4)
    destroyed = next(e for e in events if isinstance(e, Eliminated)).units[0]
    assert destroyed.attackers == (Attacker(square="3,3", card=CATAPULT, owner="p3", kind="shot", direction=None,
                                            value=4),)
    refused(s, "already_shot", "§6", type="place", player="p1", card=SHANKER_1, square="8,4", shots=shots * 2)
    # on the enemy's turn no shooter of the odd team shoots
    enemy = state(4, board, to_move="p2", hands={"p2": [SLUGGER, KROD]})
    refused(enemy, "not_a_shooter", "§10", type="place", player="p2", card=SLUGGER, square="3,4", shots=shots)


def test_s10_a_team_mate_is_never_a_target():
    board = [("3,3", CATAPULT, "p1"), ("3,5", SHANKER_1, "p3"), ("8,5", SHARPSHOOTER, "p2")]
    s = state(4, board, hands={"p1": [SHANKER_1, GONKE]})
    refused(s, "friendly_target", "§10", type="place", player="p1", card=GONKE, square="8,4",
            shots=[{"shooter": "3,3", "target": "3,5"}])


# -- recalls ---------------------------------------------------------------------------------------------------


def _reinforce(seats: int, board, armies=None, to_move="p1"):
    """A state in ``to_move``'s reinforce phase (a given no placement needs to reach: nothing was placed this turn,
    nothing is involved in a kill); the sharpshooter at 8,5 is p2's."""
    full = [*board, ("8,5", SHARPSHOOTER, "p2")]
    variant = {"unbounded": True} if seats == 3 else None
    return replace(state(seats, full, to_move=to_move, armies=armies, variant=variant), phase="reinforce")


def test_s10_recall_a_team_mates_unit_when_both_play_the_same_faction():
    s = _reinforce(4, [("1,1", BOW_PEST, "p3")])
    events = act(s, type="recall", player="p1", square="1,1")
    assert events[0] == Recalled(player="p1", square="1,1", card=BOW_PEST)
    assert fold(events, s).hands[0].count(BOW_PEST) == 1  # to the recalling player's hand


def test_s10_recall_only_own_units_when_team_mates_play_different_factions():
    s = _reinforce(4, [("1,1", "elves/elven-dragoon-1", "p3"), ("2,1", BOW_PEST, "p1")],
                   armies=("orcs", "dwarves", "elves", "dwarves"))
    refused(s, "teammate_faction", "§10", type="recall", player="p1", square="1,1")
    assert act(s, type="recall", player="p1", square="2,1")[0].card == BOW_PEST


def test_s10_never_recall_a_team_mates_general():
    s = _reinforce(4, [("1,1", GONKE, "p3")])
    refused(s, "teammate_general", "§10", type="recall", player="p1", square="1,1")
    refused(s, "not_your_unit", "§5.3", type="recall", player="p1", square="8,5")  # an enemy's


def test_s10_three_players_team_mates_recall_each_others_units():
    s = _reinforce(3, [("0,0", "dwarves/dwarf-slugger-2", "p3")], to_move="p2")
    events = act(s, type="recall", player="p2", square="0,0")
    assert fold(events, s).hands[1][-1] == "dwarves/dwarf-slugger-2"
    solo = _reinforce(3, [("0,0", "dwarves/dwarf-slugger-2", "p3")], to_move="p1")
    refused(solo, "not_your_unit", "§5.3", type="recall", player="p1", square="0,0")


def test_s10_three_players_a_recalled_general_goes_to_the_recalling_players_hand():
    s = _reinforce(3, [("0,0", KROD, "p3")], to_move="p2")
    assert s.middle == ()  # on the mat, not between the team players
    after = fold(act(s, type="recall", player="p2", square="0,0"), s)
    assert KROD in after.hands[1] and KROD not in after.hands[2] and after.middle == ()


# -- the three-player team's general -----------------------------------------------------------------------------


@pytest.mark.parametrize("player", ["p2", "p3"])
def test_r15_either_team_player_deploys_the_general_and_then_neither_draws_nor_recalls(player):
    s = state(3, [("D4", "orcs/goblin-shanker-2", "p1")], to_move=player)  # S4 at D3
    seat = int(player[1:]) - 1
    hand = s.hands[seat]
    events = act(s, type="place", player=player, card=KROD, square="D5")  # N (down the mat) 5 at D4
    assert isinstance(events[0], Placed) and events[-1] == ReinforceSkipped(player=player, reason="general_deployed")
    after = fold(events, s)
    assert after.phase == "deploy" and after.active == 0 and after.middle == ()
    assert after.hands[seat] == hand and after.hand_counts[seat] == 3
    refused(after, "not_your_turn", "§10", type="draw", player=player)


def test_r15_the_general_in_the_challenge_needs_no_draw():
    s = state(3)
    s = play(s, type="place", player="p1", card=s.hands[0][1], square="C3")
    s = play(s, type="draw", player="p1")
    events = act(s, type="place", player="p2", card=KROD, square="E4")
    assert events[-1] == ReinforceSkipped(player="p2", reason="general_deployed")
    after = fold(events, s)
    assert (after.challenge, after.active, after.hand_counts[1]) == (False, 0, 3)


def test_r18_a_general_deployed_from_a_team_players_own_hand_is_reinforced_as_usual():
    s = _reinforce(3, [("0,0", KROD, "p3"), ("8,7", SHANKER_1, "p1")], to_move="p2")
    s = play(s, type="recall", player="p2", square="0,0")  # the general to p2's hand
    assert s.active == 0 and KROD in s.hands[1]
    s = replace(s, active=1, slot=1)  # p2 to deploy again (a given: the turns between change nothing here)
    events = act(s, type="place", player="p2", card=KROD, square="8,8")  # N (down) 5 at p1's 8,7
    assert not any(isinstance(e, ReinforceSkipped) for e in events)
    after = fold(events, s)
    assert after.phase == "reinforce" and after.hand_counts[1] == s.hand_counts[1] - 1 and KROD not in after.hands[1]
    assert act(after, type="draw", player="p2")[0].player == "p2"


def test_s10_three_players_only_team_players_deploy_the_team_general():
    s = state(3, [("D4", "orcs/goblin-shanker-2", "p1"), ("D6", SLUGGER, "p2")])
    refused(s, "not_in_hand", "§5.1", type="place", player="p1", card=KROD, square="D5")


# -- victory and the end -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "team", "kills", "reason"), [
    (4, "odd", {"total": 29, "commanders": 0}, "kills"),
    (4, "odd", {"total": 10, "commanders": 6}, "commanders"),
    (6, "odd", {"total": 49, "commanders": 0}, "kills"),
    (6, "odd", {"total": 12, "commanders": 8}, "commanders"),
])
def test_s10_a_team_wins_at_its_thresholds(seats, team, kills, reason):
    board = [("5,5", "dwarves/dwarf-marauder-1", "p2")]  # a veteran; the dwarf general is a commander
    if reason == "commanders":
        board = [("5,5", KROD, "p2"), ("4,4", "orcs/orc-ravager-2", "p3")]  # NE5: 5 + 5 > 7
    s = state(seats, board, hands={"p1": [GONKE, SHANKER_1]}, kills={team: kills})
    below = state(seats, board, hands={"p1": [GONKE, SHANKER_1]},
                  kills={team: {"total": kills["total"] - 1, "commanders": max(0, kills["commanders"] - 1)}})
    card = GONKE
    events = act(s, type="place", player="p1", card=card, square="5,4")
    assert events[-1] == GameEnded(winner=team, reason=reason), events
    assert not any(isinstance(e, GameEnded) for e in act(below, type="place", player="p1", card=card, square="5,4"))
    over = fold(events, s)
    members = tuple(f"p{i + 1}" for i in range(0, seats, 2))
    others = tuple(f"p{i + 1}" for i in range(1, seats, 2))
    outcome = SYSTEM.outcome(over)
    assert outcome is not None and outcome.winners == members and outcome.placings == (members, others)
    assert state_to_builtins(over)["winner"] == team


def test_s10_three_players_victory_at_twenty_cards_for_solo_or_team():
    board = [("D5", "dwarves/dwarf-marauder-1", "p2")]
    s = state(3, board, kills={"solo": {"total": 19, "commanders": 0}})
    card = next(c for c in s.hands[0] if c == GONKE)
    events = act(s, type="place", player="p1", card=card, square="D4")
    assert events[-1] == GameEnded(winner="solo", reason="kills")
    outcome = SYSTEM.outcome(fold(events, s))
    assert outcome == Outcome(winners=("p1",), placings=(("p1",), ("p2", "p3")), reason="kills",
                              scores={"p1": 20, "p2": 0, "p3": 0})


def test_s10_an_extra_turn_for_destroying_an_enemy_general_then_the_cycle_goes_on():
    board = [("5,5", KROD, "p4"), ("4,4", "orcs/orc-ravager-2", "p3"), ("9,9", SLUGGER, "p2")]
    s = state(4, board, hands={"p1": [GONKE, SHANKER_1]})  # p1's N5 and p3's NE5 at p4's general: 10 > 7
    events = act(s, type="place", player="p1", card=GONKE, square="5,4")
    assert ExtraTurnGranted(player="p1") in events
    after = play(fold(events, s), type="draw", player="p1")
    assert after.active == 0  # p1 again
    after = play(play(after, type="place", player="p1", card=SHANKER_1, square="9,8"), type="draw", player="p1")
    assert after.active == 1  # then p2, as the order goes


def test_s10_a_team_player_concedes_for_the_team():
    s = state(6)
    events = act(s, type="concede", player="p4")
    assert events[-1] == GameEnded(winner="odd", reason="concession")
    outcome = SYSTEM.outcome(fold(events, s))
    assert outcome is not None and outcome.winners == ("p1", "p3", "p5")


def test_r21_a_seat_that_cannot_deploy_loses_for_its_team():
    s = state(4, [("5,5", SHARPSHOOTER, "p2")], hands={"p1": [SHANKER_1, GONKE]})
    s = replace(s, hands=(s.hands[0], (), s.hands[2], s.hands[3]), hand_counts=(2, 0, 6, 6))  # p2 holds nothing
    s = play(s, type="place", player="p1", card=SHANKER_1, square="5,4")
    events = act(s, type="draw", player="p1")
    assert events[-1] == GameEnded(winner="odd", reason="exhausted")  # R8 for p2, lost by team even


def test_r21_a_three_player_team_player_with_an_empty_hand_still_has_the_general_between_them():
    s = state(3, [("D5", SHARPSHOOTER, "p2")])
    s = replace(s, hands=(s.hands[0], (), s.hands[2]), hand_counts=(7, 0, 3))
    card = next(c for c in s.hands[0] if c != GONKE)
    s = play(s, type="place", player="p1", card=card, square="D4")
    assert not any(isinstance(e, GameEnded) for e in act(s, type="draw", player="p1"))
    s = replace(s, middle=())
    assert act(s, type="draw", player="p1")[-1] == GameEnded(winner="solo", reason="exhausted")
