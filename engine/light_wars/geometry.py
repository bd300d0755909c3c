"""Squares and facings of the sample map (R1): ``A1``..``I9``, row 1 on p1's side; facings N (towards row 9), E, S, W.

Coordinates are ``(x, y)`` with A1 = (0, 0). Everything here is a small pure function, precomputed where it is hot.
"""

from __future__ import annotations

from engine.light_wars.catalogue import HEIGHT, TERRITORY_ROWS, WIDTH

FACINGS = ("N", "E", "S", "W")
STEP: dict[str, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:WIDTH]

Coord = tuple[int, int]


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


SQUARES: dict[str, Coord] = {name(x, y): (x, y) for y in range(HEIGHT) for x in range(WIDTH)}
NAMES: dict[Coord, str] = {xy: sq for sq, xy in SQUARES.items()}
ORDER: dict[str, int] = {sq: i for i, sq in enumerate(SQUARES)}  # row by row from A1: a stable order of squares


def neighbours(square: str) -> tuple[str, ...]:
    return _NEIGHBOURS[square]


def _neighbours(square: str) -> tuple[str, ...]:
    x, y = SQUARES[square]
    out = []
    for facing in FACINGS:
        dx, dy = STEP[facing]
        found = NAMES.get((x + dx, y + dy))
        if found is not None:
            out.append(found)
    return tuple(out)


_NEIGHBOURS: dict[str, tuple[str, ...]] = {sq: _neighbours(sq) for sq in SQUARES}


def ahead(square: str, facing: str, distance: int) -> str | None:
    """The square ``distance`` squares straight ahead of ``square`` facing ``facing`` (None: off the map)."""
    x, y = SQUARES[square]
    dx, dy = STEP[facing]
    return NAMES.get((x + dx * distance, y + dy * distance))


def direction(origin: str, target: str) -> tuple[str, int] | None:
    """The facing from ``origin`` straight towards ``target`` and the distance, or None when not in one line."""
    (x0, y0), (x1, y1) = SQUARES[origin], SQUARES[target]
    dx, dy = x1 - x0, y1 - y0
    if dx and dy or not dx and not dy:
        return None
    if dx:
        return ("E" if dx > 0 else "W"), abs(dx)
    return ("N" if dy > 0 else "S"), abs(dy)


def side_of(target_facing: str, from_direction: str) -> str:
    """Where an attack coming from ``from_direction`` (the facing from the target towards the attacker) strikes
    a target facing ``target_facing``: its front, its side or its rear (§4)."""
    if from_direction == target_facing:
        return "front"
    if from_direction == OPPOSITE[target_facing]:
        return "rear"
    return "side"


FACING_BONUS = {"front": 0, "side": 1, "rear": 2}  # §4


def territory_rows(index: int) -> tuple[int, ...]:
    """The rows (0-based) of seat ``index``'s territory: the rows nearest it (R1)."""
    if index == 0:
        return tuple(range(TERRITORY_ROWS))
    return tuple(range(HEIGHT - TERRITORY_ROWS, HEIGHT))


def territory(index: int) -> tuple[str, ...]:
    rows = territory_rows(index)
    return tuple(sq for sq, (_, y) in SQUARES.items() if y in rows)


def castle(index: int) -> str:
    """The middle square of the back row of seat ``index`` (R1)."""
    return name(WIDTH // 2, 0 if index == 0 else HEIGHT - 1)


def home_facing(index: int) -> str:
    """The facing towards the enemy: p1 faces N, p2 faces S."""
    return "N" if index == 0 else "S"


def distance(a: str, b: str) -> int:
    (x0, y0), (x1, y1) = SQUARES[a], SQUARES[b]
    return abs(x0 - x1) + abs(y0 - y1)


__all__ = [
    "ARROWS", "COLUMNS", "FACINGS", "FACING_BONUS", "NAMES", "OPPOSITE", "ORDER", "SQUARES", "STEP", "ahead", "castle",
    "direction", "distance", "home_facing", "name", "neighbours", "side_of", "territory", "territory_rows",
]
