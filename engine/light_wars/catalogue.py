"""Light Wars' game data: the unit types, the tactic tiles, the maps and the named armies (R1), as a catalogue.

The built-in data ships inside the package (``data/catalogue.json``: our sample data, its SOURCE.md beside it) and
is read once at import time with ``importlib.resources``, so an installed wheel reads it as a checkout does. It is
the **default catalogue** (issue 30: ``default_document``); a game may play another (``setup["catalogue"]``, checked
by ``CATALOGUES.problems``). The engine reads a game's data through ``tables_of`` (engine.light_wars.state's
``data_of(state)``), never a module-level table: the module-level names below are the default catalogue's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import msgspec

from engine.catalogue import (
    JSON_SCHEMA_DIALECT,
    CatalogueProblem,
    CatalogueRules,
    catalogue_id,
    child,
    document_properties,
)
from engine.light_wars.board import MAX_SIDE, Board, on_board

DATA = files(__package__) / "data"

SYSTEM_NAME = "light-wars"
MAX_UNITS = 10  # §2.2
SIZES: dict[str, tuple[int, int]] = {"small": (20, 5), "medium": (30, 8), "large": (40, 12)}  # §2.1
MAX_TOTAL_COST = 200  # a custom scenario's bounds (ours: the text sets none)
MAX_TURNS = 30
SKILLS = ("shoot", "first_strike")
EFFECTS = ("move", "attack_total", "shooting")
KING = "king"  # the unit type that is the King (R2: exactly one per army, cost 0)


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # "infantry"
    name: str  # "Infantry"
    letter: str  # "I": unit ids are the letter and a number ("I2"); the King is "K"
    cost: int
    move: int
    attack: int
    skill: str | None  # "shoot" | "first_strike" | None

    @property
    def shoots(self) -> bool:
        return self.skill == "shoot"

    @property
    def first_strike(self) -> bool:
        return self.skill == "first_strike"

    @property
    def is_king(self) -> bool:
        return self.id == KING


class Tactic(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    cost: int
    effect: str  # "move" | "attack_total" | "shooting"
    value: int
    text: str


class SampleArmy(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    units: tuple[str, ...]
    tactics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tables:
    """One game's data: its catalogue's unit types, tactic tiles and armies, and the map it is played on. Made once
    per (catalogue, map) and shared by reference by every state of every game on them. ``id``: the catalogue's
    content id, None for the default catalogue."""

    id: str | None
    units: dict[str, UnitType]
    tactics: dict[str, Tactic]
    armies: dict[str, SampleArmy]
    bases: int
    board: Board
    maps: tuple[str, ...]  # the catalogue's map names, its first the one a game plays unless it names another

    @property
    def letters(self) -> dict[str, str]:
        return {t.letter: t.id for t in self.units.values()}

    def army_cost(self, units: tuple[str, ...], tactics: tuple[str, ...]) -> int:
        return sum(self.units[u].cost for u in units) + sum(self.tactics[t].cost for t in tactics)


# -- the catalogue document (issue 30: engine.system.Catalogues) --------------------------------------------------

MAX_TYPES = 26
MAX_TACTICS = 50
MAX_MAPS = 20
MAX_ARMIES = 200
_ID = r"^[a-z0-9][a-z0-9_-]{0,31}$"
_SQUARE = r"^[A-Z][1-9][0-9]?$"
_SMALL = {"type": "integer", "minimum": 0, "maximum": 99}
_ROWS = {"type": "array", "minItems": 1, "maxItems": MAX_SIDE, "items": {"type": "integer", "minimum": 1,
                                                                         "maximum": MAX_SIDE}}
_SEATS = ("p1", "p2")

SCHEMA: dict[str, Any] = {
    "$schema": JSON_SCHEMA_DIALECT,
    "$id": "https://warlog.example/schemas/light-wars/catalogue",
    "title": "Light Wars catalogue",
    "description": "Unit types, tactic tiles (§1), maps (R1: size, Castles, territories), bases per player and the "
                   "named armies a setup may name (§2.2). Squares are a column letter and a row number (A1; row 1 on "
                   "p1's side).",
    "type": "object",
    "required": ["system", "name", "version", "bases", "units", "tactics", "maps", "armies"],
    "additionalProperties": False,
    "properties": {
        **document_properties(SYSTEM_NAME),
        "bases": {"type": "integer", "minimum": MAX_UNITS, "maximum": 99,
                  "description": "bases per player (R1): each unit stands on one, the rest are the stock"},
        "units": {"type": "array", "minItems": 1, "maxItems": MAX_TYPES, "items": {"$ref": "#/$defs/unit"}},
        "tactics": {"type": "array", "maxItems": MAX_TACTICS, "items": {"$ref": "#/$defs/tactic"}},
        "maps": {"type": "array", "minItems": 1, "maxItems": MAX_MAPS, "items": {"$ref": "#/$defs/map"}},
        "armies": {"type": "array", "maxItems": MAX_ARMIES, "items": {"$ref": "#/$defs/army"}},
    },
    "$defs": {
        "unit": {
            "type": "object",
            "required": ["id", "name", "letter", "cost", "move", "attack"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _ID, "description": "\"king\" is the King (R2)"},
                "name": {"type": "string", "minLength": 1, "maxLength": 40},
                "letter": {"type": "string", "pattern": "^[A-Z]$",
                           "description": "unit ids are the letter and a number (I2); the King is K"},
                "cost": _SMALL,
                "move": {"type": "integer", "minimum": 0, "maximum": 20},
                "attack": _SMALL,
                "skill": {"enum": [*SKILLS, None], "description": "shoot (archer) or first_strike (spearman), §4"},
            },
        },
        "tactic": {
            "type": "object",
            "required": ["id", "name", "cost", "effect", "value"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _ID},
                "name": {"type": "string", "minLength": 1, "maxLength": 40},
                "cost": {"type": "integer", "minimum": 0, "maximum": 12, "description": "in bases from the stock"},
                "effect": {"enum": list(EFFECTS), "description": "this turn: move further, add to every attacking "
                                                                 "total, or add to every shooting archer's attack"},
                "value": {"type": "integer", "minimum": 1, "maximum": 9},
                "text": {"type": "string", "maxLength": 200},
            },
        },
        "map": {
            "type": "object",
            "required": ["name", "width", "height", "territories"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": _ID, "description": "what a setup names: variant map"},
                "width": {"type": "integer", "minimum": 3, "maximum": MAX_SIDE},
                "height": {"type": "integer", "minimum": 3, "maximum": MAX_SIDE},
                "castles": {"type": "object", "additionalProperties": False,
                            "properties": {p: {"type": "string", "pattern": _SQUARE} for p in _SEATS},
                            "description": "each player's Castle square (§5.2)"},
                "territories": {"type": "object", "required": list(_SEATS), "additionalProperties": False,
                                "properties": {p: _ROWS for p in _SEATS},
                                "description": "each player's territory rows (§2.3), p1's below p2's"},
            },
        },
        "army": {
            "type": "object",
            "required": ["name", "units"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": _ID, "description": "what a setup names: \"army\": \"horde\""},
                "units": {"type": "array", "minItems": 1, "maxItems": MAX_UNITS,
                          "items": {"type": "string", "pattern": _ID}},
                "tactics": {"type": "array", "maxItems": MAX_TACTICS, "items": {"type": "string", "pattern": _ID}},
            },
        },
    },
}


def default_document() -> dict[str, Any]:
    """The built-in data (``data/catalogue.json``) as a catalogue: its units, tiles, its one map and its armies."""
    raw = json.loads((DATA / "catalogue.json").read_text(encoding="utf-8"))
    shape = raw["map"]
    width, height, rows = shape["width"], shape["height"], shape["territory_rows"]
    column = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[width // 2]  # R1: the middle square of each back row
    return {
        "system": SYSTEM_NAME, "name": "Light Wars sample data", "version": "1", "about": raw["about"],
        "bases": shape["bases"],
        "units": [{"id": key, **value} for key, value in raw["units"].items()],
        "tactics": [{"id": key, **value} for key, value in raw["tactics"].items()],
        "maps": [{"name": "sample", "width": width, "height": height,
                  "castles": {"p1": f"{column}1", "p2": f"{column}{height}"},
                  "territories": {"p1": list(range(1, rows + 1)), "p2": list(range(height - rows + 1, height + 1))}}],
        "armies": [{"name": key, "units": list(value["units"]), "tactics": list(value["tactics"])}
                   for key, value in raw["armies"].items()],
    }


def _unique(items: list[dict[str, Any]], where: str, key: str, what: str) -> Iterator[CatalogueProblem]:
    seen: dict[Any, int] = {}
    for i, item in enumerate(items):
        value = item[key]
        if value in seen:
            yield CatalogueProblem(child(child(where, i), key), f"{what} {value!r} is already {where}[{seen[value]}]'s")
        seen.setdefault(value, i)


def rule_problems(document: dict[str, Any]) -> Iterator[CatalogueProblem]:
    """Every rule a catalogue of ``SCHEMA``'s shape cannot be played by: ids, letters and names unique; a King unit
    type of cost 0 lettered K (R2); every map with both Castles on it, each in its owner's territory, territories on
    the map and apart, p1's below p2's (R1, §2.3, §5.2); every army with exactly one King, known units and tiles,
    each tile once, within the largest custom total cost (§2.2, R1), and standing in every map's territories
    (§2.3: a unit that cannot be deployed would stand outside the map)."""
    units, tactics = document["units"], document["tactics"]
    yield from _unique(units, "units", "id", "unit type")
    yield from _unique(units, "units", "letter", "letter")
    yield from _unique(tactics, "tactics", "id", "tactic tile")
    yield from _unique(document["maps"], "maps", "name", "map")
    yield from _unique(document["armies"], "armies", "name", "army")
    kinds = {u["id"]: u for u in units}
    king = kinds.get(KING)
    if king is None:
        yield CatalogueProblem("units", "there is no unit type \"king\": every army has exactly one King", "R2")
    else:
        where = child("units", units.index(king))
        if king["cost"] != 0:
            yield CatalogueProblem(child(where, "cost"), f"the King costs 0, not {king['cost']}", "R2")
        if king["letter"] != "K":
            yield CatalogueProblem(child(where, "letter"), f"the King's letter is K (its unit id), not "
                                   f"{king['letter']!r}", "R2")
    for m, board in enumerate(document["maps"]):
        yield from _map_problems(board, child("maps", m))
    tiles = {t["id"]: t for t in tactics}
    for a, army in enumerate(document["armies"]):
        yield from _army_problems(army, child("armies", a), kinds, tiles, document["maps"])


def _map_problems(board: dict[str, Any], path: str) -> Iterator[CatalogueProblem]:
    width, height, name = board["width"], board["height"], board["name"]
    castles: dict[str, str] = board.get("castles", {})
    territories: dict[str, list[int]] = board["territories"]
    for p in _SEATS:
        for r, row in enumerate(territories[p]):
            if row > height:
                yield CatalogueProblem(child(child(child(path, "territories"), p), r),
                                       f"map {name!r}: row {row} is off the map (rows 1 to {height})", "R1")
        if len(set(territories[p])) != len(territories[p]):
            yield CatalogueProblem(child(child(path, "territories"), p), f"map {name!r}: {p}'s territory names a row "
                                   "twice", "R1")
    if max(territories["p1"]) >= min(territories["p2"]):
        yield CatalogueProblem(child(path, "territories"), f"map {name!r}: p1's territory rows are the rows nearest "
                               "p1, all below p2's", "R1")
    for p in _SEATS:
        square = castles.get(p)
        where = child(child(path, "castles"), p)
        if square is None:
            yield CatalogueProblem(where, f"map {name!r} has no Castle for {p}: a unit on the enemy Castle wins the "
                                   "game, so each player has one", "§5.2")
        elif not on_board(square, width, height):
            yield CatalogueProblem(where, f"map {name!r}: {p}'s Castle {square} is off the map ({width} x {height})",
                                   "R1")
        elif int(square[1:]) not in territories[p]:
            yield CatalogueProblem(where, f"map {name!r}: {p}'s Castle {square} is not in {p}'s territory", "R1")


def _army_problems(army: dict[str, Any], path: str, kinds: Mapping[str, dict[str, Any]],
                   tiles: Mapping[str, dict[str, Any]], maps: list[dict[str, Any]]) -> Iterator[CatalogueProblem]:
    name = army["name"]
    known = True
    for u, unit in enumerate(army["units"]):
        if unit not in kinds:
            known = False
            yield CatalogueProblem(child(child(path, "units"), u), f"{unit!r} is not a unit type of this catalogue")
    chosen = army.get("tactics", [])
    for t, tile in enumerate(chosen):
        if tile not in tiles:
            known = False
            yield CatalogueProblem(child(child(path, "tactics"), t), f"{tile!r} is not a tactic tile of this catalogue")
    if len(set(chosen)) != len(chosen):
        yield CatalogueProblem(child(path, "tactics"), f"army {name!r} takes a tactic tile twice: each tile is in "
                               "the box once", "R1")
    kings = army["units"].count(KING)
    if kings != 1:
        yield CatalogueProblem(child(path, "units"), f"army {name!r} has {kings} Kings; an army has exactly one", "R2")
    if known:
        cost = sum(kinds[u]["cost"] for u in army["units"]) + sum(tiles[t]["cost"] for t in chosen)
        if cost > MAX_TOTAL_COST:
            yield CatalogueProblem(path, f"army {name!r} costs {cost}, more than any battle's total cost "
                                   f"({MAX_TOTAL_COST})", "§2.2")
    for board in maps:
        width, territories = board["width"], board["territories"]
        for p in _SEATS:
            room = width * len(set(territories[p]) & set(range(1, board["height"] + 1)))
            if len(army["units"]) > room:
                yield CatalogueProblem(child(path, "units"), f"army {name!r} has {len(army['units'])} units; on map "
                                       f"{board['name']!r} {p}'s territory holds {room}: the others would stand "
                                       "outside the map", "§2.3")


CATALOGUES = CatalogueRules(SCHEMA, default_document, rule_problems,
                            armies_of=lambda document: [army["name"] for army in document["armies"]])


# -- the tables of a catalogue -------------------------------------------------------------------------------------


def _board(raw: dict[str, Any]) -> Board:
    return Board.of(raw["name"], raw["width"], raw["height"], [raw["castles"][p] for p in _SEATS],
                    [raw["territories"][p] for p in _SEATS])


def build_tables(document: dict[str, Any], map_name: str | None, content_id: str | None) -> Tables:
    """The tables of a playable catalogue (``problems`` empty) with the map ``map_name`` (None: its first)."""
    boards = {raw["name"]: raw for raw in document["maps"]}
    board = _board(boards[map_name] if map_name is not None else document["maps"][0])
    return Tables(
        id=content_id,
        units={u["id"]: UnitType(id=u["id"], name=u["name"], letter=u["letter"], cost=u["cost"], move=u["move"],
                                 attack=u["attack"], skill=u.get("skill")) for u in document["units"]},
        tactics={t["id"]: Tactic(id=t["id"], name=t["name"], cost=t["cost"], effect=t["effect"], value=t["value"],
                                 text=t.get("text", "")) for t in document["tactics"]},
        armies={a["name"]: SampleArmy(name=a["name"], units=tuple(a["units"]), tactics=tuple(a.get("tactics", ())))
                for a in document["armies"]},
        bases=document["bases"], board=board, maps=tuple(boards))


_DEFAULT_DOCUMENT = default_document()
DEFAULT_ID = catalogue_id(_DEFAULT_DOCUMENT)
DEFAULT = build_tables(_DEFAULT_DOCUMENT, None, None)
_MADE: dict[tuple[str | None, str | None], Tables] = {(None, None): DEFAULT}
_KEEP = 64  # the tables of this many (catalogue, map) pairs are kept; the oldest made is dropped first


def tables_of(document: dict[str, Any] | None, map_name: str | None = None,
              content_id: str | None = None) -> Tables:
    """The tables of a game's catalogue (None: the default) and map (None: the catalogue's first): made once per
    (catalogue, map) and shared by every game on them. ``document`` is a playable catalogue (``problems`` empty);
    ``content_id`` its id when known (``catalogue_id(document)`` otherwise)."""
    key = (None if document is None else content_id or catalogue_id(document), map_name)
    made = _MADE.get(key)
    if made is None:
        made = build_tables(_DEFAULT_DOCUMENT if document is None else document, map_name, key[0])
        if len(_MADE) >= _KEEP:
            del _MADE[next(k for k in _MADE if k != (None, None))]
        _MADE[key] = made
    return made


# The default catalogue's tables under their old names (the API's forms, notation and the tests read them).
UNIT_TYPES: dict[str, UnitType] = DEFAULT.units
TACTICS: dict[str, Tactic] = DEFAULT.tactics
ARMIES: dict[str, SampleArmy] = DEFAULT.armies
BASES: int = DEFAULT.bases
WIDTH: int = DEFAULT.board.width
HEIGHT: int = DEFAULT.board.height
TERRITORY_ROWS: int = len(DEFAULT.board.rows[0])
LETTERS: dict[str, str] = DEFAULT.letters


def army_cost(units: tuple[str, ...], tactics: tuple[str, ...]) -> int:
    return DEFAULT.army_cost(units, tactics)


__all__ = [
    "ARMIES", "BASES", "CATALOGUES", "DEFAULT", "DEFAULT_ID", "HEIGHT", "LETTERS", "MAX_TOTAL_COST", "MAX_TURNS",
    "MAX_UNITS", "SCHEMA", "SIZES", "TACTICS", "TERRITORY_ROWS", "UNIT_TYPES", "WIDTH", "SampleArmy", "Tables",
    "Tactic", "UnitType", "army_cost", "build_tables", "default_document", "rule_problems", "tables_of",
]
