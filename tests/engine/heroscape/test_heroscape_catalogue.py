"""HeroScape's catalogue (issue 30): its schema, its default (the package data: byte-identical games), the rules a
catalogue must keep to be played (§1, §6, §7: start zones that hold the armies, hexes on the map, powers the engine
acts on), and games on a second catalogue (a map with cliffs, water and an edge inlet; other army cards) played by the
bots to the end and verified."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.catalogue import CatalogueProblem, catalogue_id
from engine.errors import SetupError
from engine.heroscape import SYSTEM, sample_setup
from engine.heroscape.catalogue import load_cards, load_maps, parse_card, sample_maps
from engine.heroscape.setup import card_record
from engine.play import play, verify
from engine.system import Catalogues
from tests.engine.catalogue_given import capability, sample_catalogue


def catalogues() -> Catalogues:
    return capability(SYSTEM)


def sample() -> dict[str, Any]:
    return sample_catalogue("heroscape", "cliffside-bay")


def game(army: str, other: str, catalogue: dict[str, Any] | None, seed: int, **variant: Any) -> dict[str, Any]:
    setup = {"system": "heroscape", "players": [{"id": "p1", "army": army}, {"id": "p2", "army": other}],
             "variant": variant, "seed": seed}
    return setup if catalogue is None else {**setup, "catalogue": catalogue}


def problems(document: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(p.path, p.rule) for p in catalogues().problems(document)]


def test_default_catalogue_is_the_package_data_and_is_playable() -> None:
    default = catalogues().default()
    assert catalogues().problems(default) == ()
    cards, armies = load_cards()
    assert [c["id"] for c in default["cards"]] == list(cards)
    assert [card_record(parse_card(c["id"], c)) for c in default["cards"]] == [card_record(c) for c in cards.values()]
    assert {a["id"]: tuple(a["cards"]) for a in default["armies"]} == armies
    assert [m["id"] for m in default["maps"]] == list(load_maps()) == list(sample_maps())
    assert catalogue_id(default) == catalogue_id(catalogues().default())


def test_schema_is_json_schema_2020_12_of_the_document() -> None:
    schema = catalogues().schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["system"] == {"const": "heroscape"}
    assert set(schema["$defs"]) == {"card", "special", "army", "map"}


def test_default_catalogue_games_are_byte_identical_whether_named_or_not() -> None:
    for index in range(4):
        setup = sample_setup(index, 60 + index)
        plain = play(SYSTEM, setup, ("greedy", "random"), max_actions=3000)
        named = play(SYSTEM, {**setup, "catalogue": catalogues().default()}, ("greedy", "random"), max_actions=3000)
        encode = SYSTEM.codec.encode_json
        assert [encode(e) for e in named.events] == [encode(e) for e in plain.events]
        assert not {"catalogue", "catalogue_id"} & json.loads(encode(plain.events[0])).keys()
        assert "catalogue" not in SYSTEM.state_to_builtins(SYSTEM.fold(plain.events))


def test_second_catalogue_has_cliffs_water_an_edge_inlet_and_other_cards() -> None:
    document, default = sample(), catalogues().default()
    assert catalogues().problems(document) == ()
    (board,) = document["maps"]
    cells = {(q, r): (level, terrain) for q, r, level, terrain, _ in board["cells"]}
    assert any(terrain == "water" for _, terrain in cells.values())
    cliffs = [(a, b) for a in cells for b in cells if cells[a][0] - cells[b][0] >= 6
              and max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[0] + a[1] - b[0] - b[1])) == 1]
    assert cliffs  # a drop of 6 levels between neighbours: no figure of height 6 or less climbs it at once (§3)
    assert {(4, -3), (5, -3), (6, -3)}.isdisjoint(cells) and {(3, -3), (6, -4), (6, -2)} <= cells.keys()  # the inlet
    assert {c["name"] for c in document["cards"]}.isdisjoint({c["name"] for c in default["cards"]})
    assert {a["id"] for a in document["armies"]}.isdisjoint({a["id"] for a in default["armies"]})


@pytest.mark.parametrize(("army", "other", "variant", "bots"), [
    ("tideguard", "emberhost", {}, ("greedy", "random")),
    ("wildmoor", "tideguard", {"game": "basic"}, ("greedy", "greedy")),
    ("emberhost", "wildmoor", {"max_rounds": 8}, ("random", "greedy")),
    ("tideguard", "wildmoor", {"mode": "table", "map": "cliffside-bay"}, ("random", "random")),
])
def test_second_catalogue_is_played_by_the_bots_to_the_end_and_verifies(
        army: str, other: str, variant: dict[str, Any], bots: tuple[str, str]) -> None:
    document = sample()
    played = play(SYSTEM, game(army, other, document, 5, **variant), bots, max_actions=3000)
    state = SYSTEM.fold(played.events)
    assert SYSTEM.outcome(state) is not None and not played.conceded_at_limit
    assert verify(SYSTEM, played.events) is None
    started = played.events[0]
    assert started.catalogue == document and started.catalogue_id == catalogue_id(document)
    assert started.variant.map == "cliffside-bay" and started.board.name == "Cliffside Bay"
    assert [c.key for c in started.armies[0].cards] == next(a["cards"] for a in document["armies"] if a["id"] == army)
    assert SYSTEM.state_to_builtins(state)["catalogue"] == catalogue_id(document)
    decoded = [SYSTEM.codec.decode_json(SYSTEM.codec.encode_json(e)) for e in played.events]
    assert SYSTEM.fold(decoded) == state


def test_catalogue_shape_errors_are_listed_by_path() -> None:
    document = sample()
    document["cards"][1]["life"] = 0
    document["cards"][3]["space"] = 3
    document["maps"][0]["cells"][4][3] = "lava"
    document["maps"][0]["cells"][5][0] = 99  # off the grid: q and r are -60 to 60
    del document["armies"][2]["cards"]
    assert catalogues().problems(document) == (
        CatalogueProblem("cards[1].life", "must be >= 1"),
        CatalogueProblem("cards[3].space", "must be one of 1, 2"),
        CatalogueProblem("armies[2].cards", "is required"),
        CatalogueProblem("maps[0].cells[4][3]", "must be one of grass, road, rock, sand, water"),
        CatalogueProblem("maps[0].cells[5][0]", "must be <= 60"),
    )


def test_s1_a_map_whose_start_zones_cannot_hold_the_armies_is_refused_naming_the_rule() -> None:
    document = sample()
    document["maps"][0]["start_zones"]["p2"] = document["maps"][0]["start_zones"]["p2"][:7]
    found = catalogues().problems(document)
    # tideguard: 7 figures, fits in 7 hexes; emberhost: the double-space Skyhawk and 5 more on 7; wildmoor: 8 figures
    assert [(p.path, p.rule) for p in found] == [("maps[0].start_zones.p2", "§1")]
    assert "cannot hold army 'wildmoor' (8 figures on 8 hexes" in found[0].message
    document["maps"][0]["start_zones"]["p2"] = document["maps"][0]["start_zones"]["p2"][:6]
    assert problems(document) == [("maps[0].start_zones.p2", "§1")] * 3


def test_s1_hexes_off_the_map_and_obstacles_between_far_hexes_are_refused() -> None:
    document = sample()
    board = document["maps"][0]
    board["start_zones"]["p1"].append([5, -3])  # in the inlet: no hex there
    board["start_zones"]["p2"].append(board["start_zones"]["p1"][0])  # already p1's
    board["obstacles"].append([[0, -6], [0, -4], 3])
    board["cells"].append(list(board["cells"][0]))
    board["cells"][2][4] = "zorg"
    assert problems(document) == [
        ("maps[0].cells[2][4]", "§6"), (f"maps[0].cells[{len(board['cells']) - 1}]", "§1"),
        ("maps[0].obstacles[1]", "§1"),
        (f"maps[0].start_zones.p1[{len(board['start_zones']['p1']) - 1}]", "§1"),
        (f"maps[0].start_zones.p2[{len(board['start_zones']['p2']) - 1}]", "§1")]


def test_s7_an_army_card_the_engine_cannot_act_on_is_refused_naming_the_rule() -> None:
    document = sample()
    del document["cards"][5]["effects"]  # the Cliff Runner's sure-footed: neither acted on nor given as text
    document["cards"][2]["powers"] = ["teleport"]
    found = catalogues().problems(document)
    assert [(p.path, p.rule) for p in found] == [("cards[2].powers[0]", "§7"), ("cards[5].powers[0]", "§7")]
    assert "the engine cannot act on power 'teleport'" in found[0].message


def test_s1_squads_have_life_1_and_armies_name_known_cards_once() -> None:
    document = sample()
    document["cards"][2]["life"] = 2
    document["armies"][0]["cards"] = ["korvath", "korvath", "kraken"]
    assert problems(document) == [("cards[2].life", "§1"), ("armies[0].cards[2]", None), ("armies[0].cards", "§1")]


def test_a_setup_on_an_unplayable_catalogue_is_refused_and_the_default_names_are_not_its_own() -> None:
    document = sample()
    document["cards"][2]["powers"] = ["teleport"]
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(game("tideguard", "wildmoor", document, 1))
    assert refused.value.code == "invalid_catalogue" and refused.value.rule == "§7"
    with pytest.raises(SetupError) as unknown:
        SYSTEM.start(game("tideguard", "wildmoor", sample(), 1, map="twin-hill"))
    assert unknown.value.code == "invalid_variant" and "cliffside-bay" in unknown.value.message
    with pytest.raises(SetupError) as default_army:
        SYSTEM.start(game("utgar", "wildmoor", sample(), 1))
    assert default_army.value.code == "invalid_army" and "tideguard" in default_army.value.message


def test_size_limits_a_map_of_more_than_2000_hexes_and_more_than_500_cards_are_refused() -> None:
    document = sample()
    board = document["maps"][0]
    board["cells"] = [[q, r, 1, "grass", None] for q in range(-30, 30) for r in range(-20, 20)]  # 2,400 hexes
    document["cards"] = document["cards"] * 72  # 504 cards
    assert catalogues().problems(document) == (
        CatalogueProblem("cards", "must have at most 500 entries"),
        CatalogueProblem("maps[0].cells", "must have at most 2000 entries"),
    )


def test_sample_setups_moved_onto_the_second_catalogue_play_its_map_and_armies_to_the_end() -> None:
    """``warlog demo --catalogue`` and the conformance list move the sample setups onto a catalogue
    (``engine.catalogue.setup_on_catalogue``): HeroScape names its armies (``armies_of``) and its maps
    (``maps_of``), so a sample setup's built-in map (twin-hill, ...) becomes one of the catalogue's, start zones
    with it."""
    from engine.catalogue import army_names, map_names, setup_on_catalogue

    document = sample()
    armies = army_names(catalogues(), document)
    maps = map_names(catalogues(), document)
    assert armies == ("tideguard", "emberhost", "wildmoor") and maps == ("cliffside-bay",)
    for index in range(3):
        setup = setup_on_catalogue(sample_setup(index, 9 + index), index, armies, document, maps)
        assert setup["variant"]["map"] == "cliffside-bay"
        played = play(SYSTEM, setup, ("greedy", "random"), max_actions=3000)
        assert SYSTEM.outcome(SYSTEM.fold(played.events)) is not None and verify(SYSTEM, played.events) is None
        started = played.events[0]
        assert started.board.name == "Cliffside Bay" and {a.name for a in started.armies} <= set(armies)


def test_a_catalogues_maps_are_taken_in_turn_game_after_game_and_a_map_not_named_stays_unnamed() -> None:
    from engine.catalogue import setup_on_catalogue

    setup = {"players": [{"id": "p1", "army": "utgar"}, {"id": "p2", "army": "jandar"}],
             "variant": {"map": "twin-hill", "game": "basic"}}
    moved = [setup_on_catalogue(setup, i, ("a", "b"), "c-x", ("bay", "cove"))["variant"] for i in range(3)]
    assert [v["map"] for v in moved] == ["bay", "cove", "bay"] and all(v["game"] == "basic" for v in moved)
    unnamed = setup_on_catalogue({**setup, "variant": {"game": "basic"}}, 1, ("a", "b"), "c-x", ("bay", "cove"))
    assert unnamed["variant"] == {"game": "basic"}  # no map named: the catalogue's first is played
