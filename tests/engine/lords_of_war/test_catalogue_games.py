"""Issue 30: a Lords of War game plays the cards of its catalogue (setup ``catalogue``: the document), in sealed and
table mode and from a position; the rules read the game's cards, never the module's default table."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.catalogue import catalogue_id
from engine.errors import SetupError
from engine.lords_of_war import SYSTEM, fold, start
from engine.lords_of_war.bots import play_bot_game
from engine.lords_of_war.catalogue import CORE_DECKS, DEFAULT_TABLE, default_document
from engine.lords_of_war.state import cards_of

BORDER_MARCHES = Path(__file__).parents[2] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"


def border_marches() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(BORDER_MARCHES.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("variant", [{}, {"mode": "table"}, {"intermediate": True, "unbounded": True}])
def test_catalogue_game_is_played_to_the_end_with_the_catalogues_cards(variant: dict[str, Any]) -> None:
    document = border_marches()
    events = play_bot_game(11, armies=("fenlings", "stonewardens"), variant=variant, catalogue=document,
                           bots=("greedy", "random"))
    state = fold(events)
    assert state.phase == "over" and state.cards is not None
    assert events[0].catalogue == document and events[0].catalogue_id == catalogue_id(document) == state.cards.id
    ids = {card["id"] for card in document["cards"]}
    assert {card for record in events[0].players for card in record.cards} <= ids
    assert all(getattr(e, "card", None) in ids | {None} for e in events[1:])
    assert SYSTEM.state_to_builtins(state)["catalogue"] == state.cards.id


def test_default_game_holds_no_table_and_records_no_catalogue() -> None:
    events = start({"players": [{"army": "orcs"}, {"army": "elves"}], "seed": 1})
    assert b"catalogue" not in SYSTEM.codec.encode_json(events[0])
    assert fold(events).cards is None and cards_of(fold(events)) is DEFAULT_TABLE
    named = start({"players": [{"army": "orcs"}, {"army": "elves"}], "seed": 1, "catalogue": default_document()})
    assert named == events  # the default named by its document is the default


def test_s9_armies_are_the_catalogues_a_default_army_or_card_is_unknown_there() -> None:
    document = border_marches()
    with pytest.raises(SetupError) as unknown:
        start({"players": [{"army": "orcs"}, {"army": "fenlings"}], "seed": 1, "catalogue": document})
    assert unknown.value.code == "unknown_army" and "fenlings, stonewardens" in unknown.value.message
    with pytest.raises(SetupError) as card:
        start({"players": [{"army": list(CORE_DECKS["orcs"])}, {"army": "fenlings"}], "seed": 1,
               "catalogue": document})
    assert card.value.code == "unknown_card"


def test_a_catalogue_the_rules_cannot_play_is_refused_at_setup_naming_the_rule() -> None:
    document = border_marches()
    for card in document["cards"]:
        if card["rank"] == "general" and card["faction"] == "fenlings":
            card["rank"] = "command"
    with pytest.raises(SetupError) as refused:
        start({"players": [{"army": "stonewardens"}, {"army": "fenlings"}], "seed": 1, "catalogue": document})
    assert refused.value.code == "invalid_catalogue" and refused.value.rule == "§3"
    assert refused.value.message.startswith("the catalogue: armies[0].cards: army 'fenlings' has 0 generals")


def test_s5_2_a_position_is_judged_with_the_catalogues_defence_not_the_defaults() -> None:
    """The same two cards, one pointing at the other: destroyed by the default's numbers (so no such position),
    standing on a catalogue where both have defence 99."""
    attacker = max((c for c in default_document()["cards"] if c["faction"] == "orcs"),
                   key=lambda c: c["attacks"].get("N", 0))
    target = min((c for c in default_document()["cards"] if c["faction"] == "elves"), key=lambda c: c["defence"])
    assert attacker["attacks"]["N"] > target["defence"]
    tougher = copy.deepcopy(default_document())
    tougher["name"] = "Tough core decks"
    for card in tougher["cards"]:
        if card["id"] in (attacker["id"], target["id"]):
            card["defence"] = 99
    setup: dict[str, Any] = {
        "players": [{"army": "orcs"}, {"army": "elves"}], "seed": 3,
        "position": {"board": [{"square": "C3", "card": attacker["id"], "owner": "p1"},
                               {"square": "C4", "card": target["id"], "owner": "p2"}], "to_move": "p1"}}
    with pytest.raises(SetupError) as destroyed:
        start(setup)
    assert destroyed.value.rule == "§5.2"
    events = start({**setup, "catalogue": tougher})
    state = fold(events)
    assert len(state.board) == 2 and cards_of(state).cards[target["id"]].defence == 99
