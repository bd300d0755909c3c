"""L5R catalogues (issue 30): the document's schema and rules (R4, §1 deck shape), the default built from the package
data, and games played on the document their game_started carries."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec
import pytest

import engine.l5r as l5r
from engine.catalogue import catalogue_id
from engine.errors import SetupError
from engine.l5r.catalogue import CARDS, CATALOGUES, DECKS, Card
from engine.play import play
from tests.engine.catalogue_games import replay_frame

SECOND = Path(__file__).parents[2] / "fixtures" / "l5r" / "catalogues" / "phoenix-scorpion.json"
SYSTEM = l5r.SYSTEM


def second() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SECOND.read_text(encoding="utf-8"))
    return document


def setup_on(document: dict[str, Any] | None, first: str, second_deck: str, seed: int,
             mode: str = "sealed") -> dict[str, Any]:
    setup: dict[str, Any] = {"system": "l5r", "variant": {"mode": mode},
                             "players": [{"id": "p1", "army": first}, {"id": "p2", "army": second_deck}]}
    if mode == "sealed":
        setup["seed"] = seed
    if document is not None:
        setup["catalogue"] = document
    return setup


def problems_of(document: Any) -> list[tuple[str, str | None]]:
    return [(p.path, p.rule) for p in CATALOGUES.problems(document)]


def test_default_catalogue_is_the_package_data_and_the_engine_cards_are_built_from_it() -> None:
    data = files("engine.l5r") / "data"
    raw = json.loads((data / "cards.json").read_text(encoding="utf-8"))
    groups = {"strongholds": "stronghold", "senseis": "sensei", "personalities": "personality",
              "holdings": "holding", "events": "event", "followers": "follower", "items": "item", "spells": "spell",
              "rings": "ring", "strategies": "strategy"}
    expected = {e["id"]: msgspec.convert({**e, "kind": kind}, Card) for group, kind in groups.items()
                for e in raw[group]}
    assert CARDS == expected and list(CARDS) == list(expected)
    decks = json.loads((data / "decks.json").read_text(encoding="utf-8"))["decks"]
    assert list(DECKS) == list(decks)
    for name, deck in decks.items():
        assert DECKS[name].dynasty == tuple(c for c, n in deck["dynasty"] for _ in range(n))
        assert DECKS[name].fate == tuple(c for c, n in deck["fate"] for _ in range(n))
    default = CATALOGUES.default()
    assert CATALOGUES.problems(default) == () and [c["id"] for c in default["cards"]] == list(CARDS)
    assert {c["kind"] for c in default["cards"]} == {"stronghold", "sensei", "personality", "holding", "event",
                                                     "follower", "item", "spell", "strategy", "ring"}


def test_a_game_on_the_default_catalogue_records_no_catalogue() -> None:
    events = SYSTEM.start(SYSTEM.sample_setup(0, 7))
    assert b'"catalogue' not in SYSTEM.codec.encode_json(events[0])
    again = SYSTEM.start({**SYSTEM.sample_setup(0, 7), "catalogue": CATALOGUES.default()})
    assert SYSTEM.codec.encode_json(again[0]) == SYSTEM.codec.encode_json(events[0])  # the default, named: the same


def test_catalogue_shape_errors_are_listed_by_json_path() -> None:
    document = second()
    document["cards"][12]["chi"] = "five"
    document["cards"][13]["kind"] = "dragon"
    document["decks"][0]["dynasty"][0]["count"] = 0
    del document["decks"][1]["stronghold"]
    document["colour"] = "red"
    found = CATALOGUES.problems(document)
    assert [(p.path, p.message) for p in found] == [
        ("cards[12].chi", "must be an integer"),
        ("cards[13].kind", "must be one of stronghold, sensei, personality, holding, event, follower, item, spell, "
                           "strategy, ring"),
        ("decks[0].dynasty[0].count", "must be >= 1"),
        ("decks[1].stronghold", "is required"),
        ("colour", "is not a field of this catalogue"),
    ]
    assert all(p.rule is None for p in found)


def test_r4_a_catalogue_deck_with_four_copies_of_a_card_is_refused_naming_the_card() -> None:
    document = second()
    document["decks"][0]["fate"][0]["count"] = 4  # yojimbo
    found = CATALOGUES.problems(document)
    assert [(p.path, p.rule) for p in found] == [("decks[0].fate[0].count", "R4")]
    assert "Yojimbo" in found[0].message and "at most 3 copies" in found[0].message


def test_r4_a_catalogue_deck_with_two_copies_of_a_unique_card_is_refused() -> None:
    document = second()
    entry = document["decks"][1]["dynasty"][0]
    assert entry["card"] == "bayushi-kachiko"
    entry["count"] = 2
    (problem,) = CATALOGUES.problems(document)
    assert (problem.path, problem.rule) == ("decks[1].dynasty[0].count", "R4")
    assert "Bayushi Kachiko" in problem.message and "Unique" in problem.message


def test_s1_a_catalogue_deck_needs_40_cards_a_stronghold_and_cards_of_its_decks_kinds() -> None:
    document = second()
    document["decks"][0]["dynasty"][-1]["count"] = 1  # 39 dynasty cards
    document["decks"][0]["stronghold"] = "void-sensei"
    document["decks"][1]["fate"][0]["card"] = "gold-mine"  # a holding in a fate deck
    document["decks"][1]["sensei"] = "nobody"
    assert problems_of(document) == [("decks[0].stronghold", "§1"), ("decks[0].dynasty", "§1"),
                                     ("decks[1].sensei", "§1"), ("decks[1].fate[0].card", "§1")]


def test_catalogue_ids_and_deck_names_are_unique_and_a_ring_has_an_element() -> None:
    document = second()
    document["cards"][5]["id"] = document["cards"][4]["id"]
    document["decks"][1]["name"] = "phoenix"
    ring = next(i for i, c in enumerate(document["cards"]) if c["kind"] == "ring")
    del document["cards"][ring]["element"]
    found = problems_of(document)
    assert ("cards[5].id", None) in found and ("decks[1].name", None) in found
    assert (f"cards[{ring}].element", "§1") in found


def test_second_catalogue_has_new_clans_and_obeys_r4() -> None:
    document = second()
    assert CATALOGUES.problems(document) == ()
    clans = {c.get("clan") for c in document["cards"]} - {None}
    assert clans == {"phoenix", "scorpion"} and not clans & {c.clan for c in CARDS.values()}
    assert catalogue_id(document) != catalogue_id(CATALOGUES.default())


@pytest.mark.parametrize(("index", "mode", "bots"), [(0, "sealed", ("greedy", "random")),
                                                     (1, "sealed", ("greedy", "greedy")),
                                                     (2, "table", ("random", "greedy"))])
def test_second_catalogue_is_played_by_bots_to_the_end_and_replays_from_its_own_events(
        index: int, mode: str, bots: tuple[str, str]) -> None:
    document = second()
    first, other = ("phoenix", "scorpion") if index % 2 == 0 else ("scorpion", "phoenix")
    game = play(SYSTEM, setup_on(document, first, other, 40 + index, mode), bots, max_actions=3000)
    state = SYSTEM.fold(game.events)
    assert state.phase == "over" and SYSTEM.outcome(state) is not None
    started = game.events[0]
    assert started.catalogue == document and started.catalogue_id == catalogue_id(document)
    assert state.catalogue is not None and state.catalogue.id == catalogue_id(document)
    assert {state.catalogue.card(p.stronghold).clan for p in state.players} == {"phoenix", "scorpion"}
    setup = SYSTEM.recorded_setup(game.events)  # what verify starts the game again from
    assert setup["catalogue"] == document
    assert SYSTEM.start(setup)[0] == started
    assert SYSTEM.state_to_builtins(state)["catalogue"] == catalogue_id(document)  # the id, not the cards
    decoded = SYSTEM.codec.decode_json(SYSTEM.codec.encode_json(started))
    assert decoded == started


def test_a_changed_catalogue_under_a_game_is_seen_when_it_starts_again() -> None:
    game = play(SYSTEM, setup_on(second(), "phoenix", "scorpion", 3), ("greedy", "random"), max_actions=3000)
    started = game.events[0]
    forged = copy.deepcopy(started.catalogue)
    forged["cards"][3]["force"] = 9  # a personality made stronger after the game
    tampered = msgspec.structs.replace(started, catalogue=forged)
    restarted = SYSTEM.start(SYSTEM.recorded_setup([tampered, *game.events[1:]]))[0]
    assert restarted.catalogue_id != started.catalogue_id  # verify compares game_started: a divergence


def test_setup_refuses_a_catalogue_the_rules_cannot_play() -> None:
    document = second()
    document["decks"][0]["fate"][0]["count"] = 4
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(setup_on(document, "phoenix", "scorpion", 1))
    assert refused.value.code == "invalid_catalogue" and refused.value.rule == "R4"
    assert "Yojimbo" in str(refused.value.message)


def test_a_deck_of_another_catalogue_is_not_known_to_a_game_on_this_one() -> None:
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(setup_on(second(), "crab", "scorpion", 1))
    assert refused.value.code == "invalid_deck" and "phoenix, scorpion" in str(refused.value.message)


def test_replay_text_names_the_cards_of_the_games_catalogue() -> None:
    from replay.l5r.explain import explain

    document = second()
    game = play(SYSTEM, setup_on(document, "phoenix", "scorpion", 11), ("greedy", "greedy"), max_actions=3000)
    state, lines = SYSTEM.initial_state(), []
    for event in game.events:
        line, cause = explain(state, event)
        lines.append(line)
        assert "catalogue" not in cause  # the cards are GET /catalogues/{id}'s, not in every payload
        state = SYSTEM.evolve(state, event)
    assert "Shiro Isawa" in lines[0] and "Kyuden Bayushi" in lines[0]
    names = {c["name"] for c in document["cards"] if c["kind"] == "personality"}
    assert any(f"recruits {n}" in line for line in lines for n in names)


def test_replay_frame_in_the_terminal_names_the_cards_of_the_games_catalogue() -> None:
    game = play(SYSTEM, setup_on(second(), "phoenix", "scorpion", 12), ("greedy", "greedy"), max_actions=3000)
    drawn = replay_frame("l5r", game.events, 120)
    assert "Shiro Isawa" in drawn and "Kyuden Bayushi" in drawn


def test_a_snapshot_of_a_game_on_a_catalogue_holds_its_id_and_is_refolded_where_it_is_not_parsed() -> None:
    from engine import catalogue
    from replay.log.cursor import decode_snapshot, encode_snapshot

    document = second()
    game = play(SYSTEM, setup_on(document, "phoenix", "scorpion", 2), ("greedy", "greedy"), max_actions=3000)
    state = SYSTEM.fold(game.events[:60])
    blob = encode_snapshot(SYSTEM, state)
    assert b"Shiro Isawa" not in blob and catalogue_id(document).encode() in blob  # the id, not the cards
    assert decode_snapshot(SYSTEM, blob) == state
    known = dict(catalogue._KNOWN)
    catalogue._KNOWN.clear()  # as in a process that has not read the game yet
    try:
        assert decode_snapshot(SYSTEM, blob) is None  # not read: the cursor folds the game from its events
    finally:
        catalogue._KNOWN.update(known)


def test_record_of_a_game_on_a_catalogue_carries_it_and_starts_the_same_game_again() -> None:
    from replay.l5r.notation import export, parse, setup_from_tags

    document = second()
    document["decks"][0]["name"] = "crab"  # a default deck's name, with this catalogue's cards
    game = play(SYSTEM, setup_on(document, "crab", "scorpion", 8), ("greedy", "greedy"), max_actions=3000)
    text = export(game.events)
    assert f'[Catalogue "{catalogue_id(document)}"]' in text and '[P1Army "crab"]' in text
    setup = setup_from_tags(parse(text))
    assert setup["catalogue"] == document and SYSTEM.start(setup)[0] == game.events[0]
