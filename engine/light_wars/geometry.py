"""Squares and facings (R1): ``A1``.., row 1 on p1's side; facings N (towards the last row), E, S, W.

A map is an ``engine.light_wars.board.Board`` (a catalogue's map, issue 30); the rules read the game's own through
``engine.light_wars.state.data_of(state).board``. The module-level names here are the default catalogue's map (9 x 9,
``A1``..``I9``) and the facings, which every map shares.
"""

from __future__ import annotations

from engine.light_wars.board import FACINGS, STEP, Board, Coord, square_name
from engine.light_wars.catalogue import DEFAULT

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
FACING_BONUS = {"front": 0, "side": 1, "rear": 2}  # §4

BOARD: Board = DEFAULT.board  # the default catalogue's map
COLUMNS = BOARD.columns
SQUARES: dict[str, Coord] = BOARD.squares
NAMES: dict[Coord, str] = BOARD.names
ORDER: dict[str, int] = BOARD.order  # row by row from A1: a stable order of squares
name = square_name
neighbours = BOARD.neighbours
ahead = BOARD.ahead
direction = BOARD.direction
distance = BOARD.distance
castle = BOARD.castle
territory_rows = BOARD.territory_rows
territory = BOARD.territory


def side_of(target_facing: str, from_direction: str) -> str:
    """Where an attack coming from ``from_direction`` (the facing from the target towards the attacker) strikes
    a target facing ``target_facing``: its front, its side or its rear (§4)."""
    if from_direction == target_facing:
        return "front"
    if from_direction == OPPOSITE[target_facing]:
        return "rear"
    return "side"


def home_facing(index: int) -> str:
    """The facing towards the enemy: p1 faces N, p2 faces S."""
    return "N" if index == 0 else "S"


__all__ = [
    "ARROWS", "BOARD", "COLUMNS", "FACINGS", "FACING_BONUS", "NAMES", "OPPOSITE", "ORDER", "SQUARES", "STEP", "ahead",
    "castle", "direction", "distance", "home_facing", "name", "neighbours", "side_of", "territory", "territory_rows",
]
