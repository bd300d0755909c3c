"""Lords of War's catalogue (issue 30): its schema, its default (the package data) and the rules a catalogue must
keep to be played (§2, §3, §6)."""

from __future__ import annotations

import copy
from typing import Any

from engine.catalogue import CatalogueProblem, catalogue_id
from engine.lords_of_war import CARDS, CORE_DECKS, SYSTEM
from engine.system import Catalogues
from tests.engine.catalogue_given import capability, sample_catalogue


def catalogues() -> Catalogues:
    return capability(SYSTEM)


def sample() -> dict[str, Any]:
    return sample_catalogue("lords_of_war", "border-marches")


def test_default_catalogue_is_the_package_data_and_is_playable() -> None:
    default = catalogues().default()
    assert catalogues().problems(default) == ()
    assert {c["id"] for c in default["cards"]} == set(CARDS)
    for army in default["armies"]:
        deck = [e["card"] for e in army["cards"] for _ in range(e["count"])]
        assert sorted(deck) == sorted(CORE_DECKS[army["name"]])
    assert default["name"] and default["version"]
    assert catalogue_id(default) == catalogue_id(catalogues().default())  # the same data, the same id


def test_schema_is_json_schema_2020_12_of_the_document() -> None:
    schema = catalogues().schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["system", "name", "version", "cards", "armies"]
    schema["required"].clear()  # a copy: the caller cannot change the system's schema
    assert catalogues().schema()["required"]


def test_second_sample_catalogue_is_playable_and_differs_in_names_and_numbers() -> None:
    document = sample()
    assert catalogues().problems(document) == ()
    assert not {c["id"] for c in document["cards"]} & set(CARDS)
    assert not {c["name"] for c in document["cards"]} & {card.name for card in CARDS.values()}


def test_catalogue_shape_errors_are_listed_by_path() -> None:
    document = sample()
    document["cards"][12]["defence"] = -1
    document["cards"][3]["attacks"]["UP"] = 2
    del document["armies"][1]["cards"][0]["count"]
    document["colour"] = "red"
    assert catalogues().problems(document) == (
        CatalogueProblem("cards[3].attacks.UP", "is not a known key: must be one of N, NE, E, SE, S, SW, W, NW"),
        CatalogueProblem("cards[12].defence", "must be >= 0"),
        CatalogueProblem("armies[1].cards[0].count", "is required"),
        CatalogueProblem("colour", "is not a field of this catalogue"),
    )


def test_s3_an_army_without_a_general_cannot_be_dealt() -> None:
    document = sample()
    general = next(i for i, c in enumerate(document["cards"]) if c["rank"] == "general"
                   and c["faction"] == "fenlings")
    document["cards"][general]["rank"] = "command"
    problems = catalogues().problems(document)
    assert [(p.path, p.rule) for p in problems] == [("armies[0].cards", "§3"), ("armies[0].cards", "§2")]
    assert "0 generals" in problems[0].message and "cannot be dealt" in problems[0].message
    assert "command 6 instead of 5" in problems[1].message


def test_s2_an_army_has_36_cards() -> None:
    document = sample()
    document["armies"][1]["cards"][-1]["count"] += 1
    (problem, _ranks) = catalogues().problems(document)
    assert problem.path == "armies[1].cards" and problem.rule == "§2"
    assert "37 cards; an army has 36" in problem.message


def test_s6_a_ranged_card_needs_a_grid_that_reaches_another_square() -> None:
    document = sample()
    ranged = next(i for i, c in enumerate(document["cards"]) if c["class"] == "ranged")
    shooter = copy.deepcopy(document["cards"][ranged])
    document["cards"][ranged]["ranged"]["grid"].append([0, 0])
    del shooter["ranged"]
    shooter["id"] = "fenlings/blind-archer"
    document["cards"].append(shooter)
    problems = catalogues().problems(document)
    assert [(p.path, p.rule) for p in problems] == [
        (f"cards[{ranged}].ranged.grid", "§6"),
        (f"cards[{len(document['cards']) - 1}].ranged", "§6"),
    ]


def test_catalogue_card_ids_are_unique_and_armies_name_known_cards() -> None:
    document = sample()
    document["cards"][5]["id"] = document["cards"][4]["id"]
    problems = catalogues().problems(document)
    assert problems[0] == CatalogueProblem("cards[5].id", f"card id {document['cards'][4]['id']!r} is already "
                                           "cards[4]'s")
    assert any(p.path.startswith("armies[0].cards[") and p.path.endswith("].card")
               and "is not a card of this catalogue" in p.message for p in problems)
