"""Art of War catalogues (issue 30): KINGs and decks in a document (its schema and the deck shape of §1), the default
built from the package data, and games played on the document their game_started carries."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec
import pytest

import engine.art_of_war as art_of_war
from engine.art_of_war.catalogue import BASIC_TYPES, CARDS, CATALOGUES, DECKS, KINGS
from engine.catalogue import catalogue_id
from engine.errors import SetupError
from engine.play import play
from tests.engine.catalogue_games import replay_frame

SECOND = Path(__file__).parents[2] / "fixtures" / "art_of_war" / "catalogues" / "northern-realms.json"
SYSTEM = art_of_war.SYSTEM


def second() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SECOND.read_text(encoding="utf-8"))
    return document


def setup_on(document: dict[str, Any] | None, first: str, other: str, seed: int,
             mode: str = "sealed") -> dict[str, Any]:
    setup: dict[str, Any] = {"system": "art-of-war", "players": [{"id": "p1", "army": first},
                                                                 {"id": "p2", "army": other}],
                             "variant": {"mode": mode}}
    if mode == "sealed":
        setup["seed"] = seed
    if document is not None:
        setup["catalogue"] = document
    return setup


def test_default_catalogue_is_the_package_kings_and_decks_and_the_engine_cards_are_built_from_it() -> None:
    raw = json.loads((files("engine.art_of_war") / "data" / "cards.json").read_text(encoding="utf-8"))
    assert list(CARDS) == [*raw["basic"], *raw["kings"]] and KINGS == tuple(raw["kings"])
    for cid, card in raw["kings"].items():
        assert (CARDS[cid].name, CARDS[cid].attack, CARDS[cid].defence, CARDS[cid].king) == (
            card["name"], card["attack"], tuple(card["defence"]), True)
        assert CARDS[cid].range == tuple(tuple(o) for o in card["range"])
    for name, deck in raw["decks"].items():
        assert DECKS[name].king == deck["king"]
        assert DECKS[name].cards == tuple(t for t in BASIC_TYPES for _ in range(deck["cards"].get(t, 0)))
    default = CATALOGUES.default()
    assert CATALOGUES.problems(default) == ()
    assert [k["id"] for k in default["kings"]] == list(KINGS) and [d["name"] for d in default["decks"]] == list(DECKS)


def test_a_game_on_the_default_catalogue_records_no_catalogue() -> None:
    events = SYSTEM.start(SYSTEM.sample_setup(1, 9))
    assert b'"catalogue' not in SYSTEM.codec.encode_json(events[0])
    again = SYSTEM.start({**SYSTEM.sample_setup(1, 9), "catalogue": CATALOGUES.default()})
    assert SYSTEM.codec.encode_json(again[0]) == SYSTEM.codec.encode_json(events[0])


def test_catalogue_shape_errors_are_listed_by_json_path() -> None:
    document = second()
    document["kings"][0]["defence"] = [5]
    document["kings"][1]["range"][0] = [0, 0]
    document["decks"][2]["cards"]["dragon"] = 2
    del document["decks"][0]["king"]
    found = CATALOGUES.problems(document)
    assert [(p.path, p.message) for p in found] == [
        ("kings[0].defence", "must have at least 2 entries"),
        ("kings[1].range[0][1]", "must be >= 1"),
        ("decks[0].king", "is required"),
        ("decks[2].cards.dragon", "is not a known key: must be one of soldier, archer, priest, guardian, wizard"),
    ]
    assert all(p.rule is None for p in found)


def test_s1_a_catalogue_deck_is_a_king_of_the_catalogue_and_20_basic_units() -> None:
    document = second()
    document["decks"][0]["cards"]["soldier"] += 1  # 21
    document["decks"][1]["king"] = "iron-king"  # a KING of the built-in catalogue, not of this one
    document["kings"][2]["id"] = "archer"
    found = CATALOGUES.problems(document)
    assert [(p.path, p.rule) for p in found] == [("kings[2].id", "§1"), ("decks[0].cards", "§1"),
                                                 ("decks[1].king", "§1"), ("decks[2].king", "§1")]
    assert "21 basic units" in found[1].message and "'iron-king' is not a KING of this catalogue" in found[2].message


def test_catalogue_king_ids_and_deck_names_are_unique() -> None:
    document = second()
    document["kings"][1]["id"] = document["kings"][0]["id"]
    document["decks"][2]["name"] = "glacier"
    paths = [p.path for p in CATALOGUES.problems(document)]
    assert "kings[1].id" in paths and "decks[2].name" in paths


@pytest.mark.parametrize(("index", "mode", "bots"), [(0, "sealed", ("greedy", "random")),
                                                     (1, "sealed", ("random", "greedy")),
                                                     (2, "table", ("greedy", "greedy"))])
def test_second_catalogue_is_played_by_bots_to_the_end_and_replays_from_its_own_events(
        index: int, mode: str, bots: tuple[str, str]) -> None:
    document = second()
    assert CATALOGUES.problems(document) == ()
    decks = [d["name"] for d in document["decks"]]
    game = play(SYSTEM, setup_on(document, decks[index], decks[(index + 1) % 3], 60 + index, mode), bots,
                max_actions=3000)
    state = SYSTEM.fold(game.events)
    assert state.phase == "over" and SYSTEM.outcome(state) is not None
    started = game.events[0]
    assert started.catalogue == document and started.catalogue_id == catalogue_id(document)
    assert state.catalogue is not None and state.catalogue.card(state.players[0].king).king
    assert state.catalogue.card(state.players[0].king).name in {k["name"] for k in document["kings"]}
    setup = SYSTEM.recorded_setup(game.events)
    assert setup["catalogue"] == document and SYSTEM.start(setup)[0] == started
    assert SYSTEM.state_to_builtins(state)["catalogue"] == catalogue_id(document)
    assert SYSTEM.codec.decode_json(SYSTEM.codec.encode_json(started)) == started


def test_a_changed_catalogue_under_a_game_is_seen_when_it_starts_again() -> None:
    game = play(SYSTEM, setup_on(second(), "glacier", "shadow", 5), ("greedy", "random"), max_actions=3000)
    started = game.events[0]
    forged = copy.deepcopy(started.catalogue)
    forged["kings"][0]["attack"] = 9
    tampered = msgspec.structs.replace(started, catalogue=forged)
    assert SYSTEM.start(SYSTEM.recorded_setup([tampered, *game.events[1:]]))[0].catalogue_id != started.catalogue_id


def test_setup_refuses_a_catalogue_whose_deck_is_not_20_cards() -> None:
    document = second()
    document["decks"][0]["cards"]["wizard"] = 0
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(setup_on(document, "glacier", "shadow", 1))
    assert refused.value.code == "invalid_catalogue" and refused.value.rule == "§1"
    assert "18 basic units" in str(refused.value.message)


def test_a_deck_of_another_catalogue_is_not_known_to_a_game_on_this_one() -> None:
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(setup_on(second(), "vanguard", "shadow", 1))
    assert refused.value.code == "invalid_deck" and "glacier, phalanx, shadow" in str(refused.value.message)


def test_replay_text_names_the_kings_of_the_games_catalogue() -> None:
    from replay.art_of_war.explain import explain

    game = play(SYSTEM, setup_on(second(), "glacier", "shadow", 13), ("greedy", "greedy"), max_actions=3000)
    line, cause = explain(SYSTEM.initial_state(), game.events[0])
    assert "Frost Queen (glacier)" in line and "Shadow King (shadow)" in line
    assert "catalogue" not in cause and cause["catalogue_id"] == catalogue_id(second())


def test_replay_frame_in_the_terminal_draws_a_game_on_this_catalogue() -> None:
    game = play(SYSTEM, setup_on(second(), "glacier", "shadow", 14), ("greedy", "greedy"), max_actions=3000)
    assert "Frost Queen" in replay_frame("art-of-war", game.events, 1)  # game_started's line names this catalogue's
    assert "p1 front" in replay_frame("art-of-war", game.events, 40)  # the battlefield drawn with its KINGs


def test_record_of_a_game_on_a_catalogue_carries_it_and_starts_the_same_game_again() -> None:
    from replay.archive.notation import RecordSyntaxError
    from replay.art_of_war.notation import export, parse, setup_from_tags

    document = second()
    document["decks"][0]["name"] = "vanguard"  # a default deck's name, with this catalogue's KING and cards
    game = play(SYSTEM, setup_on(document, "vanguard", "shadow", 8), ("greedy", "greedy"), max_actions=3000)
    text = export(game.events)
    assert f'[Catalogue "{catalogue_id(document)}"]' in text and '[P1Army "vanguard"]' in text
    setup = setup_from_tags(parse(text))
    assert setup["catalogue"] == document and SYSTEM.start(setup)[0] == game.events[0]
    changed = text.replace('"Frost Queen', '"Frozen Queen')  # the catalogue under the game changed
    with pytest.raises(RecordSyntaxError) as refused:
        setup_from_tags(parse(changed))
    assert refused.value.code == "catalogue_changed"
