"""Setup (§3, §9): the catalogue, armies (core, custom, mercenary), variants and starting positions."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import SetupError
from engine.lords_of_war import CARDS, CORE_DECKS, FACTIONS, fold, start, state_to_builtins
from engine.lords_of_war.catalogue import ABOUT, RANK_COUNTS
from engine.lords_of_war.geometry import delta

ORCS = list(CORE_DECKS["orcs"])


def setup(p1_army=("orcs"), p2_army="dwarves", **extra):
    return {"system": "lords-of-war", "players": [{"id": "p1", "name": "Ann", "army": p1_army},
                                                   {"id": "p2", "name": "Bob", "army": p2_army}], **extra}


def setup_error(body) -> SetupError:
    with pytest.raises(SetupError) as info:
        start(body)
    return info.value


def test_catalogue_six_core_decks_of_36_with_the_rank_counts():
    assert FACTIONS == ("orcs", "dwarves", "elves", "lizardmen", "templars", "undead")
    for deck in CORE_DECKS.values():
        assert len(deck) == 36
        assert Counter(CARDS[c].rank for c in deck) == Counter(RANK_COUNTS)
    assert "krawaller/low" in ABOUT  # the source note travels with the data


def test_catalogue_p2_arrows_and_grids_are_rotated():
    ravager = CARDS["orcs/orc-ravager-1"]  # NW5
    assert ravager.points[0][delta(-1, 1)] == 5 and ravager.points[1][delta(1, -1)] == 5
    assert delta(0, 3) in CARDS["orcs/orc-catapult"].grid_deltas[0]
    assert delta(0, -3) in CARDS["orcs/orc-catapult"].grid_deltas[1]


def test_setup_core_armies_deal_the_general_and_five():
    started, p1, p2 = start(setup(seed=5))
    assert [a.army_name for a in started.players] == ["orcs", "dwarves"]
    assert p1.cards[0] == "orcs/gonke-longtooth" and p1.count == 6 and len(set(p1.cards)) <= 6
    s = fold((started, p1, p2))
    assert state_to_builtins(s)["deck"] == {"p1": 30, "p2": 30}
    assert s.phase == "deploy" and s.challenge and s.turn == 0


def test_setup_custom_and_mercenary_armies():
    custom = ORCS.copy()
    custom.remove("orcs/orc-ravager-1")
    custom.append("orcs/orc-catapult")  # veteran for veteran, same faction
    mercenary = ORCS.copy()
    mercenary.remove("orcs/orc-warhog-1")
    mercenary.append("lizardmen/quillshot")  # elite for elite
    started, _, _ = start(setup(custom, mercenary))
    assert [a.army_name for a in started.players] == ["custom:orcs", "mercenary"]


def test_setup_army_errors_name_what_is_wrong():
    short = ORCS[:-1]
    assert "36 cards, this one has 35" in setup_error(setup(short)).message
    two_generals = ORCS.copy()
    two_generals.remove("orcs/vanak-fleshripper")
    two_generals.append("dwarves/krod-klouthammer")
    error = setup_error(setup(two_generals))
    assert "exactly one general, this one has 2" in error.message and "command: 4 instead of 5" in error.message
    wrong_rank = ORCS.copy()
    wrong_rank.remove("orcs/orc-warhog-1")
    wrong_rank.append("orcs/orc-catapult")
    error = setup_error(setup(wrong_rank))
    assert error.code == "invalid_army" and "elite: 3 instead of 4" in error.message and error.message.startswith("p1")
    assert setup_error(setup("gnomes")).code == "unknown_army"
    assert "orcs/orc-king" in setup_error(setup(ORCS[:-1] + ["orcs/orc-king"])).message


def test_setup_variant_and_player_errors():
    assert setup_error(setup(variant={"teams": True})).code == "invalid_variant"
    assert setup_error(setup(variant={"mode": "secret"})).code == "invalid_variant"
    assert setup_error(setup(variant={"kill_target": 0})).code == "invalid_variant"
    assert setup_error({"players": [{"id": "p1", "army": "orcs"}]}).code == "invalid_setup"
    assert setup_error(setup(seed="x")).code == "invalid_setup"
    assert setup_error({**setup(), "system": "l5r"}).code == "invalid_setup"


def test_setup_position_starts_after_the_challenge():
    body = setup(seed=3, position={"board": [{"square": "D4", "card": "orcs/gonke-longtooth", "owner": "p1"},
                                             {"square": "B2", "card": "dwarves/dwarf-slugger-1", "owner": "p2"}],
                                   "to_move": "p2", "kills": {"p1": {"total": 4, "commanders": 1}}})
    events = start(body)
    s = fold(events)
    view = state_to_builtins(s)
    assert (view["active"], view["phase"], view["turn"], view["challenge"]) == ("p2", "deploy", 1, False)
    assert view["board"] == [{"square": "B2", "card": "dwarves/dwarf-slugger-1", "owner": "p2"},
                             {"square": "D4", "card": "orcs/gonke-longtooth", "owner": "p1"}]
    assert view["kills"]["p1"] == {"total": 4, "commanders": 1}
    assert "orcs/gonke-longtooth" not in events[1].cards  # the general on the board is not dealt again
    assert view["deck"] == {"p1": 29, "p2": 29}  # 36 - 1 on the mat - 6 in hand


def test_setup_position_errors():
    def position(board, **kw):
        units = [{"square": s, "card": c, "owner": o} for s, c, o in board]
        return setup(position={"board": units, "to_move": "p1", **kw})

    assert setup_error(position([("H1", "orcs/orc-butcher", "p1")])).code == "invalid_position"
    twice_on_a1 = [("A1", "orcs/orc-butcher", "p1"), ("A1", "orcs/orc-butcher", "p1")]
    assert setup_error(position(twice_on_a1)).code == "invalid_position"
    two_of_a_single = [("A1", "orcs/goblin-shanker-1", "p1"), ("B1", "orcs/goblin-shanker-1", "p1")]
    assert setup_error(position(two_of_a_single)).code == "not_in_army"
    assert setup_error(position([("A1", "dwarves/dwarf-slugger-1", "p1")])).code == "not_in_army"
    # a unit that would already be destroyed is no position (R6 relies on it)
    error = setup_error(position([("D3", "orcs/gonke-longtooth", "p1"), ("D4", "dwarves/dwarf-slugger-1", "p2")]))
    assert "already have been destroyed" in error.message
    assert setup_error(setup(position={"board": [], "to_move": "p3"})).code == "invalid_position"
