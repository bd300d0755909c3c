"""HeroScape's game data as typed objects: the army cards, the sample armies and the sample maps.

The built-in data is package data, ``engine/heroscape/data/armies.json`` and ``maps.json`` (our sample data:
``data/SOURCE.md``), read with ``importlib.resources`` so that an installed wheel carries it; nothing else in the
engine reads files.

A card (§1): name, kind (hero or squad), figures, life (squads: 1), move, range, attack, defense, height, points,
space (1 single, 2 double), powers. An army is a list of card keys.

Map format (docs/heroscape.md): ``cells`` is a list of ``[q, r, level, terrain, glyph]`` (axial hexes, level ≥ 0,
terrain one of ``TERRAINS``, glyph a name or null); ``obstacles`` a list of ``[[q, r], [q, r], height]`` on the edge
between two adjacent hexes; ``start_zones`` maps each seat to its starting hexes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from engine.catalogue import (
    JSON_SCHEMA_DIALECT,
    CatalogueProblem,
    CatalogueRules,
    catalogue_id,
    child,
    document_properties,
)
from engine.errors import SetupError
from engine.heroscape.geometry import TERRAINS, Board, Cell, Hex, distance, double_space_end_ok, neighbours
from engine.heroscape.glyphs import PERMANENT, POWER
from events.heroscape import BoardRecord

DATA = files(__package__) / "data"
ARMIES = DATA / "armies.json"
MAPS = DATA / "maps.json"
NUMBERS = ("figures", "life", "move", "range", "attack", "defense", "height", "points")


@dataclass(frozen=True, slots=True)
class SpecialAttack:
    """A special attack (§5, §7): its range and dice; ``extra`` besides the normal attack, ``area`` also strikes
    every figure around the target, ``once`` a game."""

    name: str
    range: int
    attack: int
    extra: bool = False
    area: bool = False
    once: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    key: str
    name: str
    kind: str
    figures: int
    life: int
    move: int
    range: int
    attack: int
    defense: int
    height: int
    points: int
    space: int
    powers: tuple[str, ...]
    specials: tuple[SpecialAttack, ...] = ()


def _special(key: str, data: Any) -> SpecialAttack:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise SetupError("bad_card", "§7", f"card {key}: a special attack is {{name, range, attack, extra?, area?, "
                         f"once?}}, not {data!r}")
    unknown = sorted(set(data) - {"name", "range", "attack", "extra", "area", "once"})
    if unknown:
        raise SetupError("bad_card", "§7", f"card {key}: unknown special attack field {unknown[0]!r}")
    for name in ("range", "attack"):
        if type(data.get(name)) is not int or data[name] < 1:
            raise SetupError("bad_card", "§7", f"card {key}: special {data['name']}: {name} is a whole number ≥ 1")
    flags = {name: data.get(name, False) for name in ("extra", "area", "once")}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise SetupError("bad_card", "§7", f"card {key}: special {data['name']}: extra, area and once are true/false")
    return SpecialAttack(data["name"], data["range"], data["attack"], **flags)


def parse_card(key: str, data: Mapping[str, Any]) -> Card:
    """A card from its JSON form; a malformed card is a ``SetupError`` citing §1."""
    if data.get("kind") not in ("hero", "squad"):
        raise SetupError("bad_card", "§1", f"card {key}: kind is hero or squad, not {data.get('kind')!r}")
    for name in NUMBERS:
        value = data.get(name)
        if type(value) is not int or value < (0 if name in ("attack", "defense", "points") else 1):
            raise SetupError("bad_card", "§1", f"card {key}: {name} must be a whole number, not {value!r}")
    if data["kind"] == "squad" and data["life"] != 1:
        raise SetupError("bad_card", "§1", f"card {key}: squad figures have life 1")
    if data.get("space", 1) not in (1, 2):
        raise SetupError("bad_card", "§1", f"card {key}: space is 1 (single) or 2 (double)")
    powers = data.get("powers", [])
    if not (isinstance(powers, list) and all(isinstance(p, str) for p in powers)):
        raise SetupError("bad_card", "§1", f"card {key}: powers is a list of names")
    specials = data.get("specials", [])
    if not isinstance(specials, list):
        raise SetupError("bad_card", "§7", f"card {key}: specials is a list")
    n = {name: int(data[name]) for name in NUMBERS}
    return Card(
        key=key,
        name=str(data.get("name", key)),
        kind=str(data["kind"]),
        figures=n["figures"],
        life=n["life"],
        move=n["move"],
        range=n["range"],
        attack=n["attack"],
        defense=n["defense"],
        height=n["height"],
        points=n["points"],
        space=int(data.get("space", 1)),
        powers=tuple(powers),
        specials=tuple(_special(key, sp) for sp in specials),
    )


def load_cards(source: Traversable | Path = ARMIES) -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """The cards by key and the armies (army key -> card keys) of an armies file (default: the built-in one)."""
    raw = json.loads(source.read_text(encoding="utf-8"))
    cards = {key: parse_card(key, value) for key, value in raw["cards"].items()}
    armies: dict[str, tuple[str, ...]] = {}
    for key, army in raw["armies"].items():
        missing = [c for c in army["cards"] if c not in cards]
        if missing:
            raise SetupError("bad_army", "§1", f"army {key} names unknown cards {missing}")
        armies[key] = tuple(army["cards"])
    return cards, armies


# -- maps --


@dataclass(frozen=True, slots=True)
class GameMap:
    name: str
    board: Board
    start_zones: Mapping[str, tuple[Hex, ...]]


def _hex(value: Any, where: str) -> Hex:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise SetupError("bad_map", "§1", f"{where}: a hex is [q, r] with two whole numbers, not {value!r}")
    return (value[0], value[1])


def parse_map(data: Mapping[str, Any]) -> GameMap:
    """A map from its JSON form; a malformed map is a ``SetupError`` citing §1."""
    cells: dict[Hex, Cell] = {}
    for row in data.get("cells", []):
        if not (isinstance(row, list) and len(row) == 5):
            raise SetupError("bad_map", "§1", f"a cell is [q, r, level, terrain, glyph], not {row!r}")
        q, r, level, terrain, glyph = row
        h = _hex([q, r], "cell")
        if type(level) is not int or level < 0:
            raise SetupError("bad_map", "§1", f"hex {h}: the level must be a whole number ≥ 0, not {level!r}")
        if terrain not in TERRAINS:
            raise SetupError("bad_map", "§1", f"hex {h}: unknown terrain {terrain!r} (one of {sorted(TERRAINS)})")
        if glyph is not None and not isinstance(glyph, str):
            raise SetupError("bad_map", "§1", f"hex {h}: a glyph is a name or null, not {glyph!r}")
        if h in cells:
            raise SetupError("bad_map", "§1", f"hex {h} is listed twice")
        cells[h] = Cell(level, terrain, glyph)
    if not cells:
        raise SetupError("bad_map", "§1", "a map needs at least one hex")
    obstacles: dict[frozenset[Hex], int] = {}
    for item in data.get("obstacles", []):
        if not (isinstance(item, list) and len(item) == 3 and type(item[2]) is int and item[2] > 0):
            raise SetupError("bad_map", "§1", f"an obstacle is [hex, hex, height > 0], not {item!r}")
        a, b = _hex(item[0], "obstacle"), _hex(item[1], "obstacle")
        if a not in cells or b not in cells or distance(a, b) != 1:
            raise SetupError("bad_map", "§1", f"an obstacle stands on the edge between two adjacent hexes: {a}, {b}")
        obstacles[frozenset((a, b))] = item[2]
    zones: dict[str, tuple[Hex, ...]] = {}
    for seat, hexes in dict(data.get("start_zones", {})).items():
        zone = tuple(_hex(h, f"start zone of {seat}") for h in hexes)
        if any(h not in cells for h in zone):
            raise SetupError("bad_map", "§1", f"the start zone of {seat} has a hex off the map")
        zones[str(seat)] = zone
    return GameMap(str(data.get("name", "")), Board(cells, obstacles), zones)


def load_maps(source: Traversable | Path = MAPS) -> dict[str, GameMap]:
    """The maps of a maps file (default: the built-in one) by key, checked."""
    raw = json.loads(source.read_text(encoding="utf-8"))
    return {key: parse_map(value) for key, value in raw["maps"].items()}


def board_record(data: Mapping[str, Any]) -> BoardRecord:
    """A checked map as a game carries it (``game_started.board``)."""
    return BoardRecord(
        name=str(data["name"]),
        cells=tuple((q, r, level, terrain, glyph) for q, r, level, terrain, glyph in data["cells"]),
        obstacles=tuple(((a[0], a[1]), (b[0], b[1]), h) for a, b, h in data.get("obstacles", [])),
        start_zones={seat: tuple((h[0], h[1]) for h in hexes) for seat, hexes in data["start_zones"].items()})


# -- the catalogue document (issue 30: engine.system.Catalogues) --------------------------------------------------
#
# A HeroScape catalogue: army cards (the numbers of §1, the powers the engine acts on, special attacks, and other
# powers as effect-only text), named armies of them, and maps in the map format above, each with an ``id`` a setup
# names. The built-in data (armies.json, maps.json) is the default catalogue.

SYSTEM_NAME = "heroscape"
ENGINE_POWERS = ("flying", "berserker-charge")  # the powers the rules act on by name (§3, §7)
GLYPHS = tuple(sorted(PERMANENT | POWER))  # the glyphs the engine knows (§6)
SEATS = ("p1", "p2")
MAX_CARDS = 500
MAX_ARMIES = 100
MAX_ARMY_CARDS = 20
MAX_MAPS = 20
MAX_HEXES = 2000  # a map's cells
GRID = 60  # axial coordinates q and r within -GRID..GRID
MAX_LEVEL = 100
_KEY = r"^[a-z0-9][a-z0-9_-]{0,39}$"
_COORD = {"type": "integer", "minimum": -GRID, "maximum": GRID}
_HEX = {"type": "array", "minItems": 2, "maxItems": 2, "prefixItems": [_COORD, _COORD]}
_NUMBER = {"type": "integer", "minimum": 0, "maximum": 999}
_POSITIVE = {"type": "integer", "minimum": 1, "maximum": 99}

SCHEMA: dict[str, Any] = {
    "$schema": JSON_SCHEMA_DIALECT,
    "$id": "https://warlog.example/schemas/heroscape/catalogue",
    "title": "HeroScape catalogue",
    "description": "Army cards (§1, §7), the armies a setup names, and maps (§1: axial hexes [q, r] with a level, a "
                   "terrain and a glyph; obstacles on the edge between two hexes; each seat's start zone).",
    "type": "object",
    "required": ["system", "name", "version", "cards", "armies", "maps"],
    "additionalProperties": False,
    "properties": {
        **document_properties(SYSTEM_NAME),
        "cards": {"type": "array", "minItems": 1, "maxItems": MAX_CARDS, "items": {"$ref": "#/$defs/card"}},
        "armies": {"type": "array", "maxItems": MAX_ARMIES, "items": {"$ref": "#/$defs/army"}},
        "maps": {"type": "array", "minItems": 1, "maxItems": MAX_MAPS, "items": {"$ref": "#/$defs/map"}},
    },
    "$defs": {
        "card": {
            "type": "object",
            "required": ["id", "name", "kind", *NUMBERS],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _KEY, "description": "unique; what an army names"},
                "name": {"type": "string", "minLength": 1, "maxLength": 60},
                "kind": {"enum": ["hero", "squad"]},
                "figures": {"type": "integer", "minimum": 1, "maximum": 12},
                "life": _POSITIVE, "move": _POSITIVE, "range": _POSITIVE, "height": _POSITIVE,
                "attack": {"type": "integer", "minimum": 0, "maximum": 99},
                "defense": {"type": "integer", "minimum": 0, "maximum": 99},
                "points": _NUMBER,
                "space": {"enum": [1, 2], "description": "1 single-space, 2 double-space"},
                "powers": {"type": "array", "maxItems": 12, "items": {"type": "string", "pattern": _KEY},
                           "description": f"the card's powers: {', '.join(ENGINE_POWERS)} (the engine acts on them), "
                                          "a special attack's name, or a power given in effects"},
                "specials": {"type": "array", "maxItems": 4, "items": {"$ref": "#/$defs/special"}},
                "effects": {"type": "array", "maxItems": 12, "items": {
                    "type": "object", "required": ["name", "text"], "additionalProperties": False,
                    "properties": {"name": {"type": "string", "pattern": _KEY},
                                   "text": {"type": "string", "minLength": 1, "maxLength": 600}},
                    "description": "a power the engine does not act on: its text; the scorekeeper records what it "
                                   "did (effect_applied)"}},
            },
        },
        "special": {
            "type": "object",
            "required": ["name", "range", "attack"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string", "pattern": _KEY}, "range": _POSITIVE, "attack": _POSITIVE,
                           "extra": {"type": "boolean", "description": "besides the normal attack (§7)"},
                           "area": {"type": "boolean", "description": "also every figure around the target (§7)"},
                           "once": {"type": "boolean", "description": "once a game"}},
        },
        "army": {
            "type": "object",
            "required": ["id", "name", "cards"],
            "additionalProperties": False,
            "properties": {"id": {"type": "string", "pattern": _KEY, "description": "what a setup names"},
                           "name": {"type": "string", "minLength": 1, "maxLength": 80},
                           "cards": {"type": "array", "minItems": 1, "maxItems": MAX_ARMY_CARDS,
                                     "items": {"type": "string", "pattern": _KEY}}},
        },
        "map": {
            "type": "object",
            "required": ["id", "name", "cells", "start_zones"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _KEY, "description": "what a setup names: variant map"},
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "about": {"type": "string", "maxLength": 2000},
                "cells": {"type": "array", "minItems": 1, "maxItems": MAX_HEXES, "items": {
                    "type": "array", "minItems": 5, "maxItems": 5, "description": "[q, r, level, terrain, glyph]",
                    "prefixItems": [_COORD, _COORD, {"type": "integer", "minimum": 0, "maximum": MAX_LEVEL},
                                    {"enum": sorted(TERRAINS)},
                                    {"description": f"null or a glyph: {', '.join(GLYPHS)}"}]}},
                "obstacles": {"type": "array", "maxItems": MAX_HEXES, "items": {
                    "type": "array", "minItems": 3, "maxItems": 3, "description": "[hex, hex, height]",
                    "prefixItems": [_HEX, _HEX, {"type": "integer", "minimum": 1, "maximum": MAX_LEVEL}]}},
                "start_zones": {"type": "object", "required": list(SEATS), "additionalProperties": False,
                                "properties": {seat: {"type": "array", "minItems": 1, "maxItems": MAX_HEXES,
                                                      "items": _HEX} for seat in SEATS}},
            },
        },
    },
}


def default_document() -> dict[str, Any]:
    """The built-in data (``data/armies.json``, ``data/maps.json``) as a catalogue."""
    cards = json.loads(ARMIES.read_text(encoding="utf-8"))
    maps = json.loads(MAPS.read_text(encoding="utf-8"))
    return {
        "system": SYSTEM_NAME, "name": "HeroScape sample data", "version": "1",
        "about": f"{cards['about']} {maps['about']}",
        "cards": [{"id": key, **value} for key, value in cards["cards"].items()],
        "armies": [{"id": key, "name": army["name"], "cards": list(army["cards"])}
                   for key, army in cards["armies"].items()],
        "maps": [{"id": key, **value} for key, value in maps["maps"].items()],
    }


def _unique(items: list[dict[str, Any]], where: str, what: str) -> Iterator[CatalogueProblem]:
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if item["id"] in seen:
            yield CatalogueProblem(child(child(where, i), "id"), f"{what} {item['id']!r} is already "
                                   f"{where}[{seen[item['id']]}]'s")
        seen.setdefault(item["id"], i)


def rule_problems(document: dict[str, Any]) -> Iterator[CatalogueProblem]:
    """Every rule a catalogue of ``SCHEMA``'s shape cannot be played by: ids unique; a squad's figures of life 1
    (§1); every power one the engine acts on, a special attack of the card, or effect-only text (§7); armies of known
    cards, each once (§1); every map's hexes once, obstacles between two adjacent hexes of it, start zones on it and
    apart, glyphs the engine knows (§1, §6); and every army placeable in every start zone of every map (§1, §3)."""
    yield from _unique(document["cards"], "cards", "card")
    yield from _unique(document["armies"], "armies", "army")
    yield from _unique(document["maps"], "maps", "map")
    cards = {c["id"]: c for c in document["cards"]}
    for i, card in enumerate(document["cards"]):
        yield from _card_problems(card, child("cards", i))
    for a, army in enumerate(document["armies"]):
        path = child("armies", a)
        for c, key in enumerate(army["cards"]):
            if key not in cards:
                yield CatalogueProblem(child(child(path, "cards"), c), f"{key!r} is not a card of this catalogue")
        if len(set(army["cards"])) != len(army["cards"]):
            yield CatalogueProblem(child(path, "cards"), f"army {army['id']!r} names a card twice: each army card is "
                                   "in an army once", "§1")
    for m, data in enumerate(document["maps"]):
        path = child("maps", m)
        found = list(_map_problems(data, path))
        yield from found
        if found:
            continue  # the armies are fitted to a sound map only
        board = parse_map(data).board
        for army in document["armies"]:
            spaces = [cards[k]["space"] for k in army["cards"] if k in cards for _ in range(cards[k]["figures"])]
            for seat in SEATS:
                zone = [(h[0], h[1]) for h in data["start_zones"][seat]]
                if not _fits(board, zone, spaces):
                    yield CatalogueProblem(
                        child(child(path, "start_zones"), seat),
                        f"map {data['id']!r}: {seat}'s start zone ({len(set(zone))} hexes) cannot hold army "
                        f"{army['id']!r} ({len(spaces)} figures on {sum(spaces)} hexes, a double-space figure on two "
                        "adjacent hexes of one level)", "§1")


def _card_problems(card: dict[str, Any], path: str) -> Iterator[CatalogueProblem]:
    if card["kind"] == "squad" and card["life"] != 1:
        yield CatalogueProblem(child(path, "life"), f"{card['name']} is a squad: squad figures have life 1", "§1")
    specials = [s["name"] for s in card.get("specials", [])]
    effects = [e["name"] for e in card.get("effects", [])]
    if len(set(specials)) != len(specials):
        yield CatalogueProblem(child(path, "specials"), f"{card['name']} names a special attack twice", "§7")
    for p, power in enumerate(card.get("powers", [])):
        if power not in ENGINE_POWERS and power not in specials and power not in effects:
            yield CatalogueProblem(
                child(child(path, "powers"), p),
                f"{card['name']}: the engine cannot act on power {power!r}: it acts on {', '.join(ENGINE_POWERS)} "
                "and the card's special attacks (specials); give any other power as effect-only text (effects)", "§7")


def _map_problems(data: dict[str, Any], path: str) -> Iterator[CatalogueProblem]:
    name = data["id"]
    cells: dict[Hex, int] = {}
    for i, (q, r, _, _, glyph) in enumerate(data["cells"]):
        where = child(child(path, "cells"), i)
        if (q, r) in cells:
            yield CatalogueProblem(where, f"map {name!r}: hex [{q}, {r}] is already cells[{cells[(q, r)]}]", "§1")
        cells.setdefault((q, r), i)
        if glyph is not None and glyph not in GLYPHS:
            yield CatalogueProblem(child(where, 4), f"map {name!r}: {glyph!r} is not a glyph the engine knows "
                                   f"({', '.join(GLYPHS)}), nor null", "§6")
    for i, (a, b, _) in enumerate(data.get("obstacles", [])):
        ha, hb = (a[0], a[1]), (b[0], b[1])
        if ha not in cells or hb not in cells or distance(ha, hb) != 1:
            yield CatalogueProblem(child(child(path, "obstacles"), i), f"map {name!r}: an obstacle stands on the edge "
                                   f"between two adjacent hexes of the map, not {list(ha)} and {list(hb)}", "§1")
    zones: dict[Hex, str] = {}
    for seat in SEATS:
        for i, h in enumerate(data["start_zones"][seat]):
            hx = (h[0], h[1])
            where = child(child(child(path, "start_zones"), seat), i)
            if hx not in cells:
                yield CatalogueProblem(where, f"map {name!r}: {list(hx)} of {seat}'s start zone is off the map", "§1")
            elif hx in zones:
                owner = zones[hx]
                yield CatalogueProblem(where, f"map {name!r}: {list(hx)} is already in {owner}'s start zone", "§1")
            zones.setdefault(hx, seat)


def _fits(board: Board, zone: list[Hex], spaces: list[int]) -> bool:
    """Whether figures of these spaces (1, 2) stand in ``zone`` together: the engine's own way of laying out a start
    zone (``rules.layouts``: the zone's hexes in four orders, double-space figures first, each taking the next free
    hex, a double-space one with a free neighbour of its level) finds room for all of them."""
    hexes = list(dict.fromkeys(zone))
    inside = set(hexes)
    for order in (hexes, hexes[::-1], sorted(hexes), sorted(hexes, reverse=True)):
        taken: set[Hex] = set()
        for space in sorted(spaces, reverse=True):
            spot = next(((h, t) for h in order if h not in taken for t in ((h,) if space == 1 else neighbours(h))
                         if t in inside and t not in taken and (space == 1 or double_space_end_ok(board, h, t))),
                        None)
            if spot is None:
                break
            taken.update(spot)
        else:
            return True
    return False


CATALOGUES = CatalogueRules(SCHEMA, default_document, rule_problems,
                            armies_of=lambda document: [army["id"] for army in document["armies"]],
                            maps_of=lambda document: [board["id"] for board in document["maps"]])


@dataclass(frozen=True, slots=True)
class Tables:
    """A catalogue's cards, armies (army id -> card ids) and maps (map id -> ``BoardRecord``), made once per
    catalogue and shared. ``id``: the catalogue's content id, None for the default."""

    id: str | None
    cards: dict[str, Card]
    armies: dict[str, tuple[str, ...]]
    maps: dict[str, BoardRecord]


def build_tables(document: dict[str, Any], content_id: str | None) -> Tables:
    """The tables of a playable catalogue (``problems`` empty)."""
    return Tables(id=content_id,
                  cards={c["id"]: parse_card(c["id"], c) for c in document["cards"]},
                  armies={a["id"]: tuple(a["cards"]) for a in document["armies"]},
                  maps={m["id"]: board_record(m) for m in document["maps"]})


_DEFAULT_DOCUMENT = default_document()
DEFAULT_ID = catalogue_id(_DEFAULT_DOCUMENT)
DEFAULT = build_tables(_DEFAULT_DOCUMENT, None)
_MADE: dict[str, Tables] = {}
_KEEP = 64  # the tables of this many catalogues are kept; the oldest made is dropped first


def tables_of(document: dict[str, Any] | None, content_id: str | None = None) -> Tables:
    """The tables of a game's catalogue (None: the default), made once per catalogue and shared by its games.
    ``document`` is a playable catalogue; ``content_id`` its id when known."""
    if document is None:
        return DEFAULT
    key = content_id or catalogue_id(document)
    made = _MADE.get(key)
    if made is None:
        made = build_tables(document, key)
        if len(_MADE) >= _KEEP:
            del _MADE[next(iter(_MADE))]
        _MADE[key] = made
    return made


def catalogue() -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """The default catalogue's cards and sample armies."""
    return DEFAULT.cards, DEFAULT.armies


def sample_maps() -> dict[str, BoardRecord]:
    """The default catalogue's maps by id as a game carries them (``game_started.board``)."""
    return DEFAULT.maps


__all__ = ["ARMIES", "CATALOGUES", "DEFAULT", "DEFAULT_ID", "MAPS", "SCHEMA", "Card", "GameMap", "SpecialAttack",
           "Tables", "board_record", "build_tables", "catalogue", "default_document", "load_cards", "load_maps",
           "parse_card", "parse_map", "rule_problems", "sample_maps", "tables_of"]
