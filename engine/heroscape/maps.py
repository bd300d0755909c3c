"""HeroScape sample maps: ``fixtures/heroscape/maps.json`` (our sample data, fixtures/heroscape/SOURCE.md).

Map format (docs/heroscape.md): ``cells`` is a list of ``[q, r, level, terrain, glyph]`` (axial hexes, level ≥ 0,
terrain one of ``TERRAINS``, glyph a name or null); ``obstacles`` a list of ``[[q, r], [q, r], height]`` on the edge
between two adjacent hexes; ``start_zones`` maps each seat to its starting hexes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import SetupError
from engine.heroscape.geometry import TERRAINS, Board, Cell, Hex, distance

MAPS_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "heroscape" / "maps.json"


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


def load_maps(path: Path = MAPS_PATH) -> dict[str, GameMap]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {key: parse_map(value) for key, value in raw["maps"].items()}
