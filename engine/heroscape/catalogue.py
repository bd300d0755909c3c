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
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from engine.errors import SetupError
from engine.heroscape.geometry import TERRAINS, Board, Cell, Hex, distance
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


@cache
def catalogue() -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """The built-in cards and sample armies, read once."""
    return load_cards(ARMIES)


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


@cache
def sample_maps() -> dict[str, BoardRecord]:
    """The built-in maps by key as a game carries them (``game_started.board``), checked and read once."""
    raw = json.loads(MAPS.read_text(encoding="utf-8"))["maps"]
    out = {}
    for key, data in raw.items():
        parse_map(data)  # validated (SetupError bad_map)
        out[key] = BoardRecord(
            name=str(data["name"]),
            cells=tuple((q, r, level, terrain, glyph) for q, r, level, terrain, glyph in data["cells"]),
            obstacles=tuple(((a[0], a[1]), (b[0], b[1]), h) for a, b, h in data.get("obstacles", [])),
            start_zones={seat: tuple((h[0], h[1]) for h in hexes) for seat, hexes in data["start_zones"].items()})
    return out


__all__ = ["ARMIES", "MAPS", "Card", "GameMap", "SpecialAttack", "catalogue", "load_cards", "load_maps", "parse_card",
           "parse_map", "sample_maps"]
