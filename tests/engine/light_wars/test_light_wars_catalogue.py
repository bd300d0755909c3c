"""Light Wars' catalogue (issue 30): its schema, its default (the package data, byte-identical games), the rules a
catalogue must keep to be played (R1, R2, §2.2, §2.3, §5.2), and games on a second catalogue (another map size,
other units, tiles and numbers) played by the bots to the end and verified."""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec
import pytest

from engine.catalogue import CatalogueProblem, catalogue_id
from engine.errors import SetupError
from engine.light_wars import SYSTEM, sample_setup
from engine.light_wars.catalogue import ARMIES, TACTICS, UNIT_TYPES
from engine.light_wars.state import data_of
from engine.play import play, verify
from engine.system import Catalogues
from tests.engine.catalogue_given import capability, sample_catalogue


def catalogues() -> Catalogues:
    return capability(SYSTEM)


def sample() -> dict[str, Any]:
    return sample_catalogue("light_wars", "marsh-frontier")


def game(army: str, other: str, catalogue: dict[str, Any] | None, seed: int, **variant: Any) -> dict[str, Any]:
    setup = {"system": "light-wars", "players": [{"id": "p1", "army": army}, {"id": "p2", "army": other}],
             "variant": variant, "seed": seed}
    return setup if catalogue is None else {**setup, "catalogue": catalogue}


def test_default_catalogue_is_the_package_data_and_is_playable() -> None:
    default = catalogues().default()
    assert catalogues().problems(default) == ()
    assert [u["id"] for u in default["units"]] == list(UNIT_TYPES)
    assert [t["id"] for t in default["tactics"]] == list(TACTICS)
    assert {a["name"]: (tuple(a["units"]), tuple(a["tactics"])) for a in default["armies"]} == {
        name: (army.units, army.tactics) for name, army in ARMIES.items()}
    (board,) = default["maps"]
    assert (board["width"], board["height"], board["castles"]) == (9, 9, {"p1": "E1", "p2": "E9"})
    assert board["territories"] == {"p1": [1, 2], "p2": [8, 9]}
    assert catalogue_id(default) == catalogue_id(catalogues().default())


def test_schema_is_json_schema_2020_12_of_the_document() -> None:
    schema = catalogues().schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["system"] == {"const": "light-wars"}
    assert set(schema["$defs"]) == {"unit", "tactic", "map", "army"}


def test_default_catalogue_games_are_byte_identical_whether_named_or_not() -> None:
    """A setup without a catalogue and one giving the default's own document start the same game, and its
    game_started carries no catalogue field at all: the bytes every default game always had."""
    for index in range(6):
        setup = sample_setup(index, 40 + index)
        plain = play(SYSTEM, setup, ("greedy", "random"))
        named = play(SYSTEM, {**setup, "catalogue": catalogues().default()}, ("greedy", "random"))
        encode = SYSTEM.codec.encode_json
        assert [encode(e) for e in named.events] == [encode(e) for e in plain.events]
        started = json.loads(encode(plain.events[0]))
        assert not {"catalogue", "catalogue_id", "map"} & started.keys()
        assert SYSTEM.fold(plain.events).tables is None


def test_second_catalogue_differs_in_names_numbers_and_map_size() -> None:
    document, default = sample(), catalogues().default()
    assert catalogues().problems(document) == ()
    assert {(m["width"], m["height"]) for m in document["maps"]}.isdisjoint(
        {(m["width"], m["height"]) for m in default["maps"]})
    assert document["bases"] != default["bases"]
    assert {u["name"] for u in document["units"]}.isdisjoint({u["name"] for u in default["units"]})
    assert {a["name"] for a in document["armies"]}.isdisjoint({a["name"] for a in default["armies"]})


@pytest.mark.parametrize(("army", "other", "variant", "bots"), [
    ("vanguard", "levy", {"size": "small"}, ("greedy", "random")),
    ("garrison", "vanguard", {"size": "small", "deployment": "screen", "map": "pass"}, ("greedy", "greedy")),
    ("levy", "garrison", {"size": "medium", "map": "frontier"}, ("random", "greedy")),
    ("vanguard", "garrison", {"size": "large", "map": "pass"}, ("greedy", "greedy")),
    ("levy", "vanguard", {"size": "small", "mode": "table", "map": "pass"}, ("random", "random")),
])
def test_second_catalogue_is_played_by_the_bots_to_the_end_and_verifies(
        army: str, other: str, variant: dict[str, Any], bots: tuple[str, str]) -> None:
    document = sample()
    played = play(SYSTEM, game(army, other, document, 11, **variant), bots)
    state = SYSTEM.fold(played.events)
    assert SYSTEM.outcome(state) is not None and not played.conceded_at_limit
    assert verify(SYSTEM, played.events) is None
    started = played.events[0]
    assert started.catalogue == document and started.catalogue_id == catalogue_id(document)
    assert started.bases == 14 and all(a.stock == 14 - len(a.units) for a in started.armies)
    board = data_of(state).board
    wanted = variant.get("map", "frontier")
    assert board.name == wanted and (board.width, board.height) == {"frontier": (11, 7), "pass": (7, 12)}[wanted]
    assert all(u.square in board.squares for u in state.units if u.square)
    shown = SYSTEM.state_to_builtins(state)
    assert shown["catalogue"] == catalogue_id(document) and shown["map"]["width"] == board.width
    # the record alone replays it: decoded from its bytes, folded to the same state
    decoded = [SYSTEM.codec.decode_json(SYSTEM.codec.encode_json(e)) for e in played.events]
    assert SYSTEM.fold(decoded) == state


def test_games_on_one_catalogue_share_its_tables() -> None:
    document = sample()
    first = SYSTEM.fold(play(SYSTEM, game("levy", "levy", document, 1), ("random",)).events)
    second = SYSTEM.fold(play(SYSTEM, game("levy", "garrison", copy.deepcopy(document), 2), ("random",)).events)
    assert data_of(first) is data_of(second)


def problems(document: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(p.path, p.rule) for p in catalogues().problems(document)]


def test_catalogue_shape_errors_are_listed_by_path() -> None:
    document = sample()
    document["units"][2]["cost"] = -1
    document["maps"][1]["width"] = 40
    del document["armies"][0]["name"]
    document["tactics"][0]["effect"] = "fly"
    assert catalogues().problems(document) == (
        CatalogueProblem("units[2].cost", "must be >= 0"),
        CatalogueProblem("tactics[0].effect", "must be one of move, attack_total, shooting"),
        CatalogueProblem("maps[1].width", "must be <= 26"),
        CatalogueProblem("armies[0].name", "is required"),
    )


def test_s5_2_a_map_without_castles_is_refused_naming_the_rule() -> None:
    document = sample()
    del document["maps"][0]["castles"]
    found = catalogues().problems(document)
    assert [(p.path, p.rule) for p in found] == [("maps[0].castles.p1", "§5.2"), ("maps[0].castles.p2", "§5.2")]
    assert "has no Castle for p1" in found[0].message


def test_r1_castles_and_territories_stand_on_the_map() -> None:
    document = sample()
    document["maps"][0]["castles"]["p2"] = "M7"  # the map is 11 wide: A to K
    document["maps"][1]["territories"]["p2"] = [10, 11, 12, 13]  # 12 rows
    document["maps"][1]["castles"]["p1"] = "D4"  # p1's territory is rows 1-3
    assert problems(document) == [("maps[0].castles.p2", "R1"), ("maps[1].territories.p2[3]", "R1"),
                                  ("maps[1].castles.p1", "R1")]


def test_s2_3_an_army_larger_than_a_territory_would_stand_outside_the_map() -> None:
    document = sample()
    document["maps"].append({"name": "ledge", "width": 3, "height": 5, "castles": {"p1": "B1", "p2": "B5"},
                             "territories": {"p1": [1, 2], "p2": [5]}})
    found = [p for p in catalogues().problems(document) if p.rule == "§2.3"]
    # vanguard 8 units, levy 9, garrison 7: none stands in p2's 3 squares, nor levy and vanguard in p1's 6
    assert [p.path for p in found] == ["armies[0].units", "armies[0].units", "armies[1].units", "armies[1].units",
                                       "armies[2].units", "armies[2].units"]
    assert "outside the map" in found[0].message


def test_r2_every_army_has_one_king_and_the_king_costs_nothing() -> None:
    document = sample()
    document["units"][0]["cost"] = 2
    document["armies"][1]["units"].remove("king")
    document["armies"][2]["units"].append("king")
    assert problems(document) == [("units[0].cost", "R2"), ("armies[1].units", "R2"), ("armies[2].units", "R2")]


def test_catalogue_names_are_unique_and_armies_name_known_units_and_tiles() -> None:
    document = sample()
    document["units"][3]["letter"] = "M"
    document["armies"][0]["units"][1] = "dragon"
    document["armies"][1]["tactics"] = ["ambush", "ambush", "teleport"]
    assert problems(document) == [("units[3].letter", None), ("armies[0].units[1]", None),
                                  ("armies[1].tactics[2]", None), ("armies[1].tactics", "R1")]


def test_a_setup_on_an_unplayable_catalogue_is_refused_and_an_unknown_map_too() -> None:
    document = sample()
    del document["maps"][0]["castles"]
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(game("levy", "levy", document, 1))
    assert refused.value.code == "invalid_catalogue" and refused.value.rule == "§5.2"
    with pytest.raises(SetupError) as unknown:
        SYSTEM.start(game("levy", "levy", sample(), 1, map="swamp"))
    assert unknown.value.code == "invalid_variant" and "frontier, pass" in unknown.value.message
    with pytest.raises(SetupError) as default_army:
        SYSTEM.start(game("balanced", "levy", sample(), 1))  # the default's army is not this catalogue's
    assert default_army.value.code == "invalid_army" and "vanguard, levy, garrison" in default_army.value.message


def test_a_position_names_the_catalogue_maps_squares() -> None:
    setup = game("levy", "garrison", sample(), 3, map="pass")
    setup["position"] = {"units": [{"owner": "p1", "unit": "K", "square": "D2", "facing": "N"},
                                   {"owner": "p2", "unit": "K", "square": "G12", "facing": "S"}], "to_move": "p1"}
    (started,) = SYSTEM.start(setup)
    assert msgspec.structs.asdict(started)["map"] == "pass"
    setup["position"]["units"][1]["square"] = "I9"  # on the default map, not on this 7-wide one
    with pytest.raises(SetupError) as refused:
        SYSTEM.start(setup)
    assert "A1 to G12" in refused.value.message


def test_sample_setups_moved_onto_the_second_catalogue_play_its_armies_to_the_end() -> None:
    """``warlog demo --catalogue`` and the conformance list move the sample setups onto a catalogue's armies
    (``engine.catalogue.setup_on_catalogue``): Light Wars names them (``armies_of``)."""
    from engine.catalogue import army_names, setup_on_catalogue

    document = sample()
    armies = army_names(catalogues(), document)
    assert armies == ("vanguard", "levy", "garrison")
    for index in range(6):
        setup = setup_on_catalogue(sample_setup(index, 9 + index), index, armies, document)
        played = play(SYSTEM, setup, ("greedy", "random"))
        assert SYSTEM.outcome(SYSTEM.fold(played.events)) is not None and verify(SYSTEM, played.events) is None
        assert {a.name for a in played.events[0].armies} <= set(armies)
