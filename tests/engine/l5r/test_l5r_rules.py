"""Every procedure and ruling of the L5R digest (shared rules/l5r.md, docs/l5r.md) with a named test, and every
illegal action refused with its rule. Positions (tests/engine/l5r/l5r_given.py) set each rule up in a few actions."""

from __future__ import annotations

import pytest

from engine.errors import SetupError
from engine.l5r import SYSTEM
from engine.l5r.actions import Challenge
from engine.l5r.catalogue import DEFAULT, card_of
from engine.l5r.rules import army_force, recruit_cost
from engine.play import seat_bots
from events.l5r import BattleResolved, DuelResolved, GameEnded, HonorChanged
from replay.l5r.explain import text
from replay.l5r.views import state_view
from tests.engine.l5r.l5r_given import card, given, passes, play, refused

YAKAMO, HOTARU, HOTURI = card("p1", "hida-yakamo"), card("p2", "doji-hotaru"), card("p2", "doji-hoturi")


def to_attack(game):
    return passes(game, "p1", "p2")


def to_dynasty(game):
    return passes(to_attack(game), "p1")


def attack_with(game, units, field=2, defenders=None, acted=False):
    passes(game, "p2", "p1") if acted else to_attack(game)  # acted: p1 took an action, p2's turn (R6)
    play(game, {"type": "attack", "player": "p1"}, {"type": "army", "player": "p1", "battlefield": field,
                                                     "units": units}, {"type": "pass", "player": "p1"})
    if defenders:
        play(game, {"type": "army", "player": "p2", "battlefield": field, "units": defenders})
    play(game, {"type": "pass", "player": "p2"})
    # the battle's engage and combat segments: both pass twice each
    return passes(game, "p2", "p1", "p2", "p1")


def battle_at(game, field) -> BattleResolved:
    return next(e for e in game.events if isinstance(e, BattleResolved) and e.battlefield == field)


# -- §2 setup, R1 ---------------------------------------------------------------------------------------------


def crab_crane(**extra):
    return {"system": "l5r", "players": [{"id": "p1", "army": "crab"}, {"id": "p2", "army": "crane"}],
            "variant": {"mode": "sealed"}, "seed": 3, **extra}


def test_s2_setup_deals_four_face_down_provinces_and_five_cards_and_starts_the_first_turn():
    state = SYSTEM.fold(SYSTEM.start(crab_crane()))
    for p in state.players:
        assert len(p.provinces) == 4 and all(pr.card for pr in p.provinces)
        assert len(p.hand) == 5 and len(p.fate) == 35
        assert len(p.dynasty) + 4 + len(p.dynasty_discard) == 40  # events revealed are discarded and refilled
    assert state.player("p1").honor == 5 and state.player("p2").honor == 13  # stronghold + sensei
    assert state.phase == "action" and state.active == "p2" and state.turn == 1
    discarded = set(state.player("p2").dynasty_discard)  # events revealed go to the discard, refilled face down
    assert sum(pr.face_up for pr in state.player("p2").provinces) == 4 - len(discarded)  # §3.1 revealed
    assert not any(pr.face_up for pr in state.player("p1").provinces)


def test_r1_highest_family_honour_goes_first():
    started = SYSTEM.start(crab_crane())[0]
    assert started.order == ("p2", "p1")


def test_r1_a_tie_of_honour_is_decided_by_the_players_and_recorded():
    tied = {"system": "l5r", "players": [{"id": "p1", "army": "crab"}, {"id": "p2", "army": "dragon"}],
            "variant": {"mode": "sealed"}, "seed": 3}
    assert SYSTEM.start(tied)[0].order == ("p1", "p2")  # no choice recorded: the first seat (D1)
    assert SYSTEM.start({**tied, "first": "p2"})[0].order == ("p2", "p1")
    assert SYSTEM.recorded_setup(list(SYSTEM.start({**tied, "first": "p2"})))["first"] == "p2"
    with pytest.raises(SetupError) as error:
        SYSTEM.start(crab_crane(first="p1"))  # not a tie: crane's 13 goes first
    assert error.value.rule == "R1"


def test_s1_a_deck_holds_forty_dynasty_and_forty_fate_cards():
    deck = {"stronghold": "kyuden-hida", "sensei": None, "dynasty": ["rice-paddy"] * 39, "fate": ["ashigaru"] * 40}
    with pytest.raises(SetupError) as error:
        SYSTEM.start({**crab_crane(), "players": [{"id": "p1", "army": deck}, {"id": "p2", "army": "crane"}]})
    assert error.value.rule == "§1" and "40" in error.value.message


def test_r4_at_most_three_copies_of_a_card_and_one_of_a_unique_card():
    fate = ["ashigaru", "heavy-infantry", "elite-guard", "archer-corps", "ancestral-sword", "armor-of-the-sun",
            "fan-of-command", "jade-strike", "oath-of-fealty", "charge", "ambush", "feign-death", "strength-of-purity"]
    crab = {"stronghold": "kyuden-hida", "sensei": None, "dynasty": [], "fate": fate * 3 + ["ring-of-earth"]}
    people = ["hida-yakamo", "hida-o-ushi", "hiruma-kage", "kuni-yori", "ronin-duelist", "wandering-ronin"] * 3
    holdings = ["rice-paddy", "small-farm", "market-town", "copper-mine", "silver-mine", "iron-mine"] * 3
    crab["dynasty"] = people + holdings + ["hida-kisada", "yoritomo", "winter-court", "imperial-funeral"]
    def start(**changes):
        deck = {**crab, **changes}
        return SYSTEM.start({**crab_crane(), "players": [{"id": "p1", "army": deck}, {"id": "p2", "army": "crane"}]})
    start()
    with pytest.raises(SetupError) as error:
        start(dynasty=crab["dynasty"] + ["rice-paddy"])
    assert (error.value.code, error.value.rule) == ("invalid_deck", "R4") and "4 of Rice Paddy" in error.value.message
    with pytest.raises(SetupError) as error:
        start(fate=crab["fate"] + ["ring-of-earth"])
    assert error.value.rule == "R4" and "Ring of Earth (ring-of-earth) is Unique" in error.value.message


def test_r5_a_card_of_no_clan_pays_no_surcharge_and_brings_no_clan_home():
    game = given(p1={"home": [{"card": "ronin-duelist"}]})
    p1 = game.state.player("p1")
    assert recruit_cost(DEFAULT, p1, "p1.wandering-ronin.1") == (5, 0)  # no clan: no surcharge
    assert recruit_cost(DEFAULT, p1, "p1.doji-hoturi.1") == (8, 2)  # a ronin at home brings no clan with it
    assert recruit_cost(DEFAULT, p1, "p1.hida-yakamo.1") == (7, 0)


# -- §3.1 the action phase --------------------------------------------------------------------------------------


def test_s3_1_bowed_cards_straighten_and_face_down_provinces_turn_face_up_at_the_start_of_the_turn():
    game = given(active="p2", p1={"home": [{"card": "hida-yakamo", "bowed": True}], "stronghold_bowed": True})
    assert not state_of_province(game, "p1", 2).face_up
    passes(game, "p2", "p1", "p2", "p2")  # p2's action phase, no attack, no recruiting
    p1 = game.state.player("p1")
    assert game.state.active == "p1" and game.state.phase == "action"
    assert not p1.stronghold_bowed and not game.state.in_play(YAKAMO).bowed
    assert all(pr.face_up for pr in p1.provinces)
    assert "turn_started" in game.tags() and "cards_revealed" in game.tags()


def state_of_province(game, seat, number):
    return next(pr for pr in game.state.player(seat).provinces if pr.number == number)


def test_s3_1_the_action_phase_ends_only_when_both_players_pass_in_a_row():
    game = given(p2={"hand": ["ambush"]})
    passes(game, "p1")
    play(game, {"type": "produce", "player": "p2", "card": card("p2", "kyuden-doji")},
         {"type": "play_strategy", "player": "p2", "card": card("p2", "ambush")})
    passes(game, "p1")
    assert game.state.phase == "action" and game.state.priority == "p2"  # p2 acted: not two passes in a row
    passes(game, "p2")
    assert game.state.phase == "attack"


def test_s3_1_an_open_action_attaches_a_follower_paid_in_gold_and_a_spell_only_to_a_shugenja():
    game = given(p1={"home": [{"card": "hida-yakamo"}, {"card": "kuni-yori"}],
                     "hand": ["ashigaru", "jade-strike", "elite-guard"]})
    error = refused(game, {"type": "attach", "player": "p1", "card": card("p1", "ashigaru"), "to": YAKAMO})
    assert error.rule == "§3.1" and error.code == "not_enough_gold"
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "attach", "player": "p1", "card": card("p1", "ashigaru"), "to": YAKAMO})
    assert game.state.player("p1").gold == 3 and army_force(game.state, [YAKAMO]) == 5
    passes(game, "p2")  # one action at a time (R6)
    error = refused(game, {"type": "attach", "player": "p1", "card": card("p1", "jade-strike"), "to": YAKAMO})
    assert error.rule == "§1" and error.code == "not_a_shugenja"
    play(game, {"type": "attach", "player": "p1", "card": card("p1", "jade-strike"), "to": card("p1", "kuni-yori")})


# -- §3.2 the attack phase ----------------------------------------------------------------------------------------


def test_s3_2_one_battlefield_at_each_defending_province_attacker_then_defender():
    game = to_attack(given(p1={"home": [{"card": "hida-yakamo"}]}, p2={"home": [{"card": "doji-hoturi"}]}))
    play(game, {"type": "attack", "player": "p1"})
    assert game.state.battlefields == (1, 2, 3, 4) and game.state.phase == "maneuvers"
    error = refused(game, {"type": "army", "player": "p2", "battlefield": 2, "units": [HOTURI]})
    assert error.code == "not_your_turn" and error.rule == "§3.2"
    play(game, {"type": "army", "player": "p1", "battlefield": 2, "units": [YAKAMO]}, {"type": "pass", "player": "p1"},
         {"type": "army", "player": "p2", "battlefield": 2, "units": [HOTURI]}, {"type": "pass", "player": "p2"})
    assert battle_at(game, 1).winner is None  # an empty battlefield is resolved too, at once
    assert game.state.phase == "battle" and game.state.battlefields[game.state.battle] == 2
    assert game.state.priority == "p2"  # battle actions alternate, defender first


def test_s3_2_at_most_one_army_per_battlefield_per_side():
    game = to_attack(given(p1={"home": [{"card": "hida-yakamo"}, {"card": "hida-o-ushi"}]}))
    play(game, {"type": "attack", "player": "p1"},
         {"type": "army", "player": "p1", "battlefield": 2, "units": [YAKAMO]})
    ushi = card("p1", "hida-o-ushi")
    error = refused(game, {"type": "army", "player": "p1", "battlefield": 2, "units": [ushi]})
    assert error.code == "one_army_per_battlefield" and error.rule == "§3.2"
    error = refused(game, {"type": "army", "player": "p1", "battlefield": 3, "units": [YAKAMO]})
    assert error.code == "already_in_army"


def test_s3_2_an_army_is_formed_from_standing_personalities_only():
    game = to_attack(given(p1={"home": [{"card": "hida-yakamo", "bowed": True}]}))
    play(game, {"type": "attack", "player": "p1"})
    error = refused(game, {"type": "army", "player": "p1", "battlefield": 1, "units": [YAKAMO]})
    assert error.code == "bowed_unit" and error.rule == "§3.2"


def test_s3_2_the_attacking_army_returns_home_bowed_and_the_defending_army_as_it_is():
    game = given(p1={"home": [{"card": "hida-kisada"}, {"card": "hida-yakamo"}]},
                 p2={"home": [{"card": "doji-hotaru"}]})
    attack_with(game, [card("p1", "hida-kisada"), YAKAMO], field=2, defenders=[HOTARU])
    assert game.state.in_play(YAKAMO).bowed and game.state.in_play(card("p1", "hida-kisada")).bowed
    assert game.state.in_play(HOTARU) is None  # destroyed by the winning attacker
    game = given(p1={"home": [{"card": "hiruma-kage"}]}, p2={"home": [{"card": "daidoji-uji"}]})
    attack_with(game, [card("p1", "hiruma-kage")], field=3, defenders=[card("p2", "daidoji-uji")])
    assert not game.state.in_play(card("p2", "daidoji-uji")).bowed
    assert game.state.phase == "dynasty"


# -- §4 battle resolution -----------------------------------------------------------------------------------------


def test_s4_the_attacker_wins_and_the_province_falls_when_it_beats_army_and_province_together():
    game = given(p1={"home": [{"card": "hida-kisada"}, {"card": "hida-yakamo"}]})
    attack_with(game, [card("p1", "hida-kisada"), YAKAMO], field=2)
    battle = battle_at(game, 2)
    assert (battle.attacker_force, battle.defender_force, battle.province_strength) == (9, 0, 4)
    assert battle.winner == "attacker" and battle.province_destroyed
    assert [pr.number for pr in game.state.player("p2").provinces] == [1, 3, 4]  # the row closes up
    assert battle.discarded == (card("p2", "market-town"),)
    assert "the Crab army of 9 force against 0 + province 4: the province falls" in text(game.state, battle)


def test_s4_the_attacker_wins_but_the_province_holds_and_the_defending_army_is_destroyed_for_two_honour_a_card():
    game = given(p1={"home": [{"card": "hida-yakamo"}]},
                 p2={"home": [{"card": "doji-hoturi", "attachments": ["ashigaru"]}]})
    attack_with(game, [YAKAMO], field=2, defenders=[HOTURI])
    battle = battle_at(game, 2)
    assert (battle.attacker_force, battle.defender_force) == (4, 3)
    assert battle.winner == "attacker" and not battle.province_destroyed  # 4 is not above 3 + 4
    assert set(battle.destroyed) == {HOTURI, card("p2", "ashigaru")}
    assert game.state.player("p1").honor == 10 + 4


def test_s4_the_defender_wins_and_destroys_the_attacking_army():
    game = given(p1={"home": [{"card": "hiruma-kage"}]}, p2={"home": [{"card": "daidoji-uji"}]})
    attack_with(game, [card("p1", "hiruma-kage")], field=1, defenders=[card("p2", "daidoji-uji")])
    battle = battle_at(game, 1)
    assert battle.winner == "defender" and battle.destroyed == (card("p1", "hiruma-kage"),)
    assert game.state.player("p2").honor == 12 and game.state.player("p1").honor == 10


def test_s4_a_tie_with_both_armies_destroys_both_for_one_honour_a_card():
    game = given(p1={"home": [{"card": "hiruma-kage", "attachments": ["ashigaru"]}]},
                 p2={"home": [{"card": "daidoji-uji"}]})
    attack_with(game, [card("p1", "hiruma-kage")], field=1, defenders=[card("p2", "daidoji-uji")])
    battle = battle_at(game, 1)
    assert battle.winner == "tie" and len(battle.destroyed) == 3
    assert game.state.player("p1").honor == 11 and game.state.player("p2").honor == 12


def test_s4_a_tie_with_one_army_destroys_nothing():
    game = given(p1={"home": [{"card": "hiruma-kage"}]})
    play(game, {"type": "effect", "player": "p1", "card": card("p1", "kyuden-hida"), "kind": "force",
                "target": card("p1", "hiruma-kage"), "amount": -2})
    attack_with(game, [card("p1", "hiruma-kage")], field=1, acted=True)
    battle = battle_at(game, 1)
    assert (battle.attacker_force, battle.winner, battle.destroyed) == (0, None, ())
    assert game.state.in_play(card("p1", "hiruma-kage")) is not None


def test_s4_items_count_whatever_their_state_and_followers_only_standing():
    game = given(p1={"home": [{"card": "hida-yakamo", "attachments": ["armor-of-the-sun", "ashigaru"]}]})
    play(game, {"type": "effect", "player": "p1", "card": card("p1", "kyuden-hida"), "kind": "bow",
                "target": card("p1", "ashigaru")},
         {"type": "effect", "player": "p1", "card": card("p1", "kyuden-hida"), "kind": "bow",
          "target": card("p1", "armor-of-the-sun")})
    assert army_force(game.state, [YAKAMO]) == 4 + 2  # the bowed item still counts, the bowed follower not


def test_s4_a_dishonoured_army_gaining_honour_is_restored_instead():
    game = given(p1={"home": [{"card": "hida-yakamo", "dishonored": True}]}, p2={"home": [{"card": "doji-hoturi"}]})
    attack_with(game, [YAKAMO], field=2, defenders=[HOTURI])
    battle = battle_at(game, 2)
    assert battle.restored == (YAKAMO,) and battle.honor == ()
    assert not game.state.in_play(YAKAMO).dishonored and game.state.player("p1").honor == 10


def test_s4_a_dishonoured_personality_destroyed_loses_its_owner_its_personal_honour():
    game = given(p1={"home": [{"card": "hida-yakamo"}]}, p2={"home": [{"card": "doji-hoturi", "dishonored": True}]})
    attack_with(game, [YAKAMO], field=2, defenders=[HOTURI])
    assert game.state.player("p2").honor == 10 - 2
    assert [e.reason for e in game.events if isinstance(e, HonorChanged) and e.player == "p2"] == \
        ["dishonored_destroyed"]


def test_s4_a_personality_whose_chi_reaches_zero_is_destroyed():
    game = given(p1={"home": [{"card": "hida-yakamo"}], "hand": ["charge"]})
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "play_strategy", "player": "p1", "card": card("p1", "charge")},
         {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "chi", "target": YAKAMO,
          "amount": -3})
    assert game.state.in_play(YAKAMO) is None and YAKAMO in game.state.player("p1").dynasty_discard


# -- §3.3 the dynasty phase ---------------------------------------------------------------------------------------


def test_s3_3_gold_comes_from_bowing_the_stronghold_and_holdings():
    game = to_dynasty(given(p1={"home": [{"card": "silver-mine"}]}))
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "produce", "player": "p1", "card": card("p1", "silver-mine")})
    assert game.state.player("p1").gold == 4 + 3  # Kyuden Hida 5, Earth Sensei -1; Silver Mine 3
    error = refused(game, {"type": "produce", "player": "p1", "card": card("p1", "silver-mine")})
    assert error.rule == "§3.3" and error.code == "no_gold_source"


def test_s3_3_recruiting_costs_gold_and_the_province_is_refilled_face_down():
    game = to_dynasty(given())
    kage = card("p1", "hiruma-kage")
    error = refused(game, {"type": "recruit", "player": "p1", "province": 3})
    assert error.code == "not_enough_gold" and error.rule == "§3.3"
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "recruit", "player": "p1", "province": 3})
    assert game.state.in_play(kage) is not None and game.state.player("p1").gold == 0
    refilled = state_of_province(game, "p1", 3)
    assert refilled.card == card("p1", "hida-o-ushi") and not refilled.face_up  # the dynasty deck's top


def test_s3_3_a_personality_needs_its_honour_requirement():
    game = to_dynasty(given(p1={"honor": 3, "home": [{"card": "silver-mine"}, {"card": "silver-mine"}],
                                "provinces": [{"card": "hida-kisada", "face_up": True}, None, None,
                                              {"card": "rice-paddy", "face_up": True}]}))
    play(game, *({"type": "produce", "player": "p1", "card": c} for c in
                 (card("p1", "kyuden-hida"), card("p1", "silver-mine", 1), card("p1", "silver-mine", 2))))
    error = refused(game, {"type": "recruit", "player": "p1", "province": 1})
    assert error.code == "honor_requirement" and error.rule == "§3.3"


def test_s3_3_a_personality_of_a_clan_not_yet_at_home_costs_two_more():
    game = to_dynasty(given(p1={"home": [{"card": "silver-mine"}, {"card": "rice-paddy"}],
                                "provinces": [{"card": "doji-hoturi", "face_up": True}, None, None, None]}))
    for c in ("kyuden-hida", "silver-mine"):
        play(game, {"type": "produce", "player": "p1", "card": card("p1", c)})
    error = refused(game, {"type": "recruit", "player": "p1", "province": 1})
    assert "6 + 2" in error.message
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "rice-paddy")},
         {"type": "recruit", "player": "p1", "province": 1})
    recruited = game.events[-2] if game.tags()[-1] == "province_filled" else game.events[-1]
    assert (recruited.gold, recruited.surcharge) == (8, 2)


def test_s3_3_proclaiming_gains_personal_honour_once_a_turn_for_ones_own_clan():
    game = to_dynasty(given(p1={"home": [{"card": "silver-mine"}, {"card": "silver-mine"}],
                                "provinces": [{"card": "hiruma-kage", "face_up": True},
                                              {"card": "hida-o-ushi", "face_up": True},
                                              {"card": "yoritomo", "face_up": True}, None]}))
    for c in (card("p1", "kyuden-hida"), card("p1", "silver-mine", 1), card("p1", "silver-mine", 2)):
        play(game, {"type": "produce", "player": "p1", "card": c})
    error = refused(game, {"type": "recruit", "player": "p1", "province": 3, "proclaim": True})
    assert error.code == "cannot_proclaim"  # Yoritomo is Mantis
    play(game, {"type": "recruit", "player": "p1", "province": 1, "proclaim": True})
    assert game.state.player("p1").honor == 11
    error = refused(game, {"type": "recruit", "player": "p1", "province": 2, "proclaim": True})
    assert error.code == "cannot_proclaim" and "once" in error.message


def test_s3_3_holdings_enter_play_bowed():
    game = to_dynasty(given())
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "recruit", "player": "p1", "province": 1})
    assert game.state.in_play(card("p1", "rice-paddy")).bowed


def test_s3_3_one_dynasty_discard_a_turn():
    game = to_dynasty(given())
    play(game, {"type": "discard_dynasty", "player": "p1", "province": 1})
    assert card("p1", "rice-paddy") in game.state.player("p1").dynasty_discard
    error = refused(game, {"type": "discard_dynasty", "player": "p1", "province": 4})
    assert error.code == "one_dynasty_discard" and error.rule == "§3.3"


def test_s3_3_unused_gold_is_lost_at_the_end_of_the_phase():
    game = to_dynasty(given())
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")})
    passes(game, "p1")
    assert game.state.player("p1").gold == 0


def test_s3_acting_out_of_phase_is_refused_with_its_rule():
    game = given()
    error = refused(game, {"type": "recruit", "player": "p1", "province": 1})
    assert error.code == "wrong_phase" and error.rule == "§3.1"
    error = refused(game, {"type": "pass", "player": "p2"})
    assert error.code == "not_your_turn"


# -- §3.4 the end phase -------------------------------------------------------------------------------------------


def test_s3_4_the_end_phase_draws_one_card_and_discards_down_to_eight():
    hand = ["ashigaru", "heavy-infantry", "charge", "ambush", "feign-death", "fan-of-command", "jade-strike",
            "elite-guard"]
    game = passes(to_dynasty(given(p1={"hand": hand})), "p1")
    assert game.state.phase == "end" and len(game.state.player("p1").hand) == 9
    play(game, {"type": "discard", "player": "p1", "card": card("p1", "charge")})
    assert len(game.state.player("p1").hand) == 8 and game.state.active == "p2"


# -- §5 the duel, R2 ----------------------------------------------------------------------------------------------


def duel_game(**kwargs):
    hand = ["fan-of-command", "heavy-infantry", "ambush", "strength-of-purity", "ring-of-fire"]
    return given(p1={"home": [{"card": "matsu-tsuko"}], "hand": hand, **kwargs.pop("p1", {})},
                 p2={"home": [{"card": "doji-hotaru"}], "hand": ["feign-death", "ring-of-fire", "charge", "ambush"],
                     **kwargs.pop("p2", {})}, decks=("lion", "crane"), **kwargs)


TSUKO = card("p1", "matsu-tsuko")


def test_s5_the_challenged_player_focuses_first_and_players_alternate():
    game = play(duel_game(), {"type": "challenge", "player": "p1", "challenger": TSUKO, "challenged": HOTARU})
    assert SYSTEM.to_act(game.state) == ("p2",)
    error = refused(game, {"type": "focus", "player": "p1", "source": "hand", "card": card("p1", "ambush")})
    assert error.code == "not_your_turn" and error.rule == "§5.2"
    play(game, {"type": "focus", "player": "p2", "source": "hand", "card": card("p2", "ambush")})
    assert SYSTEM.to_act(game.state) == ("p1",)


def test_s5_the_issue_example_higher_total_wins_and_the_loser_is_destroyed():
    game = play(duel_game(), {"type": "challenge", "player": "p1", "challenger": TSUKO, "challenged": HOTARU},
                {"type": "focus", "player": "p2", "source": "hand", "card": card("p2", "feign-death")},
                {"type": "focus", "player": "p1", "source": "hand", "card": card("p1", "heavy-infantry")},
                {"type": "focus", "player": "p2", "source": "hand", "card": card("p2", "ring-of-fire")},
                {"type": "strike", "player": "p1"})
    duel = next(e for e in game.events if isinstance(e, DuelResolved))
    assert duel.totals == (5, 7) and duel.winner == HOTARU and duel.destroyed == (TSUKO,)
    assert duel.returned_home == ()  # R7: fought at home, the survivor is home already
    assert text(game.state, duel) == "Doji Hotaru wins the duel 7 to 5 after three focuses; Matsu Tsuko is destroyed"
    assert {card("p2", "feign-death"), card("p1", "heavy-infantry")} <= set(
        game.state.player("p2").fate_discard + game.state.player("p1").fate_discard)  # focus cards discarded
    assert game.state.duel is None and game.state.priority == "p2"  # the challenge was p1's action (R6)


def test_s5_equal_totals_both_lose():
    game = given(p1={"home": [{"card": "hida-yakamo"}]}, p2={"home": [{"card": "hida-o-ushi"}]})
    play(game, {"type": "challenge", "player": "p1", "challenger": YAKAMO, "challenged": card("p2", "hida-o-ushi")},
         {"type": "strike", "player": "p2"})
    duel = next(e for e in game.events if isinstance(e, DuelResolved))
    assert duel.totals == (3, 3) and duel.winner is None and set(duel.destroyed) == {YAKAMO, card("p2", "hida-o-ushi")}


def test_s5_at_most_four_focuses_a_fifth_is_refused():
    focuses = [{"player": "p1", "card": c, "source": "hand"} for c in ("fan-of-command", "heavy-infantry", "ambush",
                                                                        "strength-of-purity")]
    game = duel_game(duel={"challenger": "p1:matsu-tsuko", "challenged": "p2:doji-hotaru", "focuses": focuses},
                     p1={"hand": ["fan-of-command", "heavy-infantry", "ambush", "strength-of-purity", "charge"]})
    assert SYSTEM.to_act(game.state) == ("p2",)
    error = refused(game, {"type": "focus", "player": "p1", "source": "hand", "card": card("p1", "charge")})
    assert error.code == "fifth_focus" and error.rule == "§5.2"


def test_r2_a_player_with_four_focuses_passes_and_when_both_have_four_the_duel_strikes():
    focuses = [{"player": "p1", "card": c, "source": "hand"} for c in ("fan-of-command", "heavy-infantry", "ambush",
                                                                        "strength-of-purity")]
    focuses += [{"player": "p2", "card": c, "source": "hand"} for c in ("feign-death", "ring-of-fire", "charge")]
    game = duel_game(duel={"challenger": "p1:matsu-tsuko", "challenged": "p2:doji-hotaru", "focuses": focuses},
                     p2={"hand": ["feign-death", "ring-of-fire", "charge", "ambush", "charge"]})
    play(game, {"type": "focus", "player": "p2", "source": "hand", "card": card("p2", "ambush")})
    assert game.tags()[-4:-2] == ["duel_focused", "duel_struck"] or "duel_struck" in game.tags()
    struck = [e for e in game.events if type(e).tag_name() == "duel_struck"]
    assert struck and struck[-1].player is None and game.state.duel is None


def test_s5_a_duel_is_fought_by_personalities_in_play_and_r8_a_bowed_one_may_duel():
    game = given(p1={"home": [{"card": "hida-yakamo", "bowed": True}, {"card": "hida-o-ushi"}]},
                 p2={"home": [{"card": "doji-hotaru", "bowed": True}]})
    error = refused(game, {"type": "challenge", "player": "p1", "challenger": card("p1", "hida-o-ushi"),
                           "challenged": card("p2", "kakita-toshimoko")})
    assert error.code == "no_such_personality" and error.rule == "§5.1"
    error = refused(game, {"type": "challenge", "player": "p1", "challenger": card("p1", "hida-o-ushi"),
                           "challenged": HOTARU, "stat": "force"})
    assert error.code == "duel_stat"  # chi unless a card says otherwise
    assert Challenge(player="p1", challenger=YAKAMO, challenged=HOTARU) in SYSTEM.legal_actions(game.state, "p1")
    play(game, {"type": "challenge", "player": "p1", "challenger": YAKAMO, "challenged": HOTARU})  # both bowed (R8)
    assert game.state.duel is not None and game.state.duel.challenger == YAKAMO


def test_s5_focus_cards_are_hidden_from_every_view_until_the_reveal():
    game = play(duel_game(), {"type": "challenge", "player": "p1", "challenger": TSUKO, "challenged": HOTARU},
                {"type": "focus", "player": "p2", "source": "hand", "card": card("p2", "feign-death")},
                {"type": "focus", "player": "p1", "source": "deck"})
    def focuses(view):
        return [f["card"] for f in state_view(game.state, view)["duel"]["focuses"]]
    assert focuses("spectator") == [None, None]
    assert focuses("p1") == [None, None]  # p1's own focus came from the top of the deck: nobody knows it
    assert focuses("p2") == [card("p2", "feign-death"), None]
    assert focuses("all")[0] == card("p2", "feign-death") and focuses("all")[1] is not None
    assert "feign-death" not in str(state_view(game.state, "p1"))


# -- §6 victory and elimination, R3 -------------------------------------------------------------------------------


def test_s6_honour_victory_at_the_start_of_ones_turn():
    game = passes(to_dynasty(given(p2={"honor": 40})), "p1")
    ended = game.events[-1]
    assert isinstance(ended, GameEnded) and (ended.winner, ended.reason) == ("p2", "honor")


def test_s6_enlightenment_victory_with_all_five_rings():
    rings = [{"card": r} for r in ("ring-of-earth", "ring-of-water", "ring-of-fire", "ring-of-air")]
    game = given(p1={"home": rings, "hand": ["ring-of-the-void", "ring-of-fire"]})
    error = refused(game, {"type": "play_ring", "player": "p1", "card": card("p1", "ring-of-fire", 2)})
    assert error.code == "ring_in_play"
    play(game, {"type": "play_ring", "player": "p1", "card": card("p1", "ring-of-the-void")})
    assert (game.state.winner, game.state.end_reason) == ("p1", "enlightenment")


def test_s6_military_victory_when_the_last_province_falls():
    game = given(p1={"home": [{"card": "hida-kisada"}]},
                 p2={"provinces": [None, {"card": "rice-paddy", "face_up": True}, None, None]})
    attack_with(game, [card("p1", "hida-kisada")], field=2)
    assert (game.state.winner, game.state.end_reason) == ("p1", "military")
    assert "player_eliminated" in game.tags()


def test_s6_family_honour_of_minus_twenty_eliminates():
    game = given(p1={"hand": ["charge"]})
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "play_strategy", "player": "p1", "card": card("p1", "charge")},
         {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "family_honor", "target": "p2",
          "amount": -30})
    assert game.state.player("p2").honor == -20 and (game.state.winner, game.state.end_reason) == ("p1", "military")


def test_r3_players_eliminated_at_once_leave_the_turn_player_the_winner():
    game = given(p1={"honor": -19, "home": [{"card": "hida-yakamo", "dishonored": True}]},
                 p2={"honor": -19, "home": [{"card": "hida-o-ushi", "dishonored": True}]})
    play(game, {"type": "challenge", "player": "p1", "challenger": YAKAMO, "challenged": card("p2", "hida-o-ushi")},
         {"type": "strike", "player": "p2"})
    assert game.state.player("p1").honor == -20 and game.state.player("p2").honor == -20
    assert (game.state.winner, game.state.end_reason) == ("p1", "military")


# -- effects: card texts recorded, checked for consistency only -----------------------------------------------------


def test_effects_name_a_card_of_the_acting_player_and_a_target_that_exists():
    game = given(p1={"home": [{"card": "hida-yakamo"}], "hand": ["charge"]})
    error = refused(game, {"type": "effect", "player": "p1", "card": card("p2", "kyuden-doji"), "kind": "force",
                           "target": YAKAMO, "amount": 1})
    assert error.code == "no_such_card"
    error = refused(game, {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "force",
                           "target": HOTARU, "amount": 1})
    assert error.code == "no_target"
    error = refused(game, {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "force",
                           "target": YAKAMO, "amount": 1, "until": "battle"})
    assert error.code == "no_battle"
    for nowhere in ("p9.hida-yakamo.1", "zz9", "p2.no-such-card.1", ""):  # names of nothing: refused, no crash
        error = refused(game, {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "force",
                               "target": nowhere, "amount": 1})
        assert error.code == "no_target"
        error = refused(game, {"type": "challenge", "player": "p1", "challenger": YAKAMO, "challenged": nowhere})
        assert error.code == "no_such_personality"
    play(game, {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "force", "target": YAKAMO,
                "amount": 2})
    assert army_force(game.state, [YAKAMO]) == 6


def test_table_mode_draws_are_entered_and_face_down_cards_are_laid_unseen():
    setup = {"system": "l5r", "players": [{"id": "p1", "army": "crab"}, {"id": "p2", "army": "crane"}],
             "variant": {"mode": "table"}}
    events = SYSTEM.start(setup)
    filled = [e for e in events if type(e).tag_name() == "province_filled"]
    assert len(filled) == 8 and all(e.source == "unseen" and e.card is None for e in filled)  # nobody looks (§2)
    state = SYSTEM.fold(events)
    assert all(pr.unseen and pr.card is None for p in state.players for pr in p.provinces)
    assert SYSTEM.to_act(state) == ("p1",) and state.pending[0].dest == "hand"  # p1's five cards first
    error = refused(type("G", (), {"state": state})(), {"type": "draw", "player": "p1", "card": "doji-hotaru"})
    assert error.code == "not_in_deck" and error.rule == "§2"
    events = SYSTEM.decide(state, SYSTEM.parse_action({"type": "draw", "player": "p1", "card": "ashigaru"}))
    assert events[0].card == "p1.ashigaru.1" and events[0].source == "table"


# -- R9: a stalled game -------------------------------------------------------------------------------------------


def bare(**spec):
    """A player with nothing left to play: no card at home, in a province, in hand or in a deck."""
    return {"home": [], "provinces": [{"card": None}] * 4, "hand": [], "dynasty": [], "fate": [], **spec}


def a_quiet_turn(game, seat):
    other = "p2" if seat == "p1" else "p1"
    return passes(game, seat, other, seat, seat)  # the action phase, no attack, no recruiting; the end phase


def test_r9_a_game_is_stalled_when_a_whole_round_passes_with_nothing_but_passes_and_empty_draws():
    game = given(p1=bare(), p2=bare())
    assert not SYSTEM.is_stalled(game.state)
    a_quiet_turn(game, "p1")
    assert "nothing_drawn" in game.tags() and not SYSTEM.is_stalled(game.state)  # one turn is not a round
    a_quiet_turn(game, "p2")
    assert SYSTEM.is_stalled(game.state) and game.state.phase == "action" and game.state.active == "p1"


def test_r9_anything_but_a_pass_or_an_empty_draw_starts_the_round_again():
    game = given(p1=bare(), p2=bare())
    a_quiet_turn(game, "p1")
    play(game, {"type": "produce", "player": "p2", "card": card("p2", "kyuden-doji")})  # gold produced: something
    a_quiet_turn(game, "p2")
    assert not SYSTEM.is_stalled(game.state)
    a_quiet_turn(game, "p1")
    assert not SYSTEM.is_stalled(game.state)  # p2's turn, in which gold was produced, is not part of a quiet round
    a_quiet_turn(game, "p2")
    assert SYSTEM.is_stalled(game.state)


def test_r9_quiet_rounds_fold_as_they_evolve():
    game = given(p1=bare(), p2=bare())
    a_quiet_turn(game, "p1")
    a_quiet_turn(game, "p2")
    state = SYSTEM.initial_state()
    for event in game.events:
        state = SYSTEM.evolve(state, event)
    assert state == SYSTEM.fold(game.events) == game.state and state.quiet_since == 0


def _until_stalled(index: int, seed: int, bots: tuple[str, str], limit: int) -> tuple[int, object]:
    """A bot game played action by action until it ends or ``is_stalled``: (actions played, the state)."""
    setup = SYSTEM.sample_setup(index, seed)
    players = seat_bots(SYSTEM, SYSTEM.seats(setup), bots, seed)
    state = SYSTEM.fold(SYSTEM.start(setup))
    for n in range(limit):
        if SYSTEM.outcome(state) is not None or SYSTEM.is_stalled(state):
            return n, state
        seat = SYSTEM.to_act(state)[0]
        for event in SYSTEM.decide(state, players[seat].choose(state, seat)):
            state = SYSTEM.evolve(state, event)
    return limit, state


@pytest.mark.parametrize(("index", "seed"), [(9, 12345), (9, 2**31 - 1)])
def test_r9_random_bot_games_that_cannot_end_are_stalled_within_a_bounded_number_of_actions(index, seed):
    # 12345: both decks and every province empty, four rings each (not the same four), p1 without a personality and
    # p2's army of 9 force no match for a province of strength 9. 2**31-1 stalled so before R4 rebuilt the sample
    # decks; today it ends.
    n, state = _until_stalled(index, seed, ("random", "random"), 3000)
    assert n < 3000 and (SYSTEM.is_stalled(state) or SYSTEM.outcome(state) is not None)
    if seed == 12345:
        assert SYSTEM.is_stalled(state)
        assert all(not p.fate and not p.dynasty and not any(pr.card for pr in p.provinces) for p in state.players)
        assert not any(card_of(c.id).kind == "personality" for c in state.player("p1").cards)


def test_r9_a_province_refill_from_an_empty_dynasty_deck_draws_nothing_and_is_recorded():
    game = to_dynasty(given(p1={"dynasty": []}))
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "recruit", "player": "p1", "province": 1})
    assert game.tags()[-2:] == ["card_recruited", "nothing_drawn"]
    assert (game.events[-1].deck, game.events[-1].province) == ("dynasty", 1)
    assert state_of_province(game, "p1", 1).card is None and game.state.pending == ()
    assert text(game.state, game.events[-1]) == "p1's province 1 stays empty: its dynasty deck is empty (R9)"


def test_r9_an_effect_drawing_more_than_the_deck_holds_draws_what_is_left():
    game = given(p1={"fate": ["ashigaru"], "hand": ["charge"]})
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "play_strategy", "player": "p1", "card": card("p1", "charge")},
         {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "draw", "target": "p1",
          "amount": 3})
    assert game.tags()[-4:] == ["effect", "nothing_drawn", "nothing_drawn", "card_drawn"]
    assert game.state.player("p1").hand == (card("p1", "ashigaru"),)


def test_r9_remove_takes_a_card_from_a_hand_or_a_discard_pile_too_and_nothing_else():
    game = given(p1={"hand": ["charge", "ambush"]})
    play(game, {"type": "produce", "player": "p1", "card": card("p1", "kyuden-hida")},
         {"type": "play_strategy", "player": "p1", "card": card("p1", "charge")},
         {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "remove",
          "target": card("p1", "ambush")},
         {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "remove",
          "target": card("p1", "charge")})
    p1 = game.state.player("p1")
    assert p1.removed == (card("p1", "ambush"), card("p1", "charge")) and not p1.hand and not p1.fate_discard
    for nowhere in (card("p1", "kyuden-hida"), card("p1", "ashigaru"), "p9.x.1"):  # a stronghold, a deck card
        assert refused(game, {"type": "effect", "player": "p1", "card": card("p1", "charge"), "kind": "remove",
                              "target": nowhere}).code == "no_target"
