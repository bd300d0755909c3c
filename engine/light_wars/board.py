"""A Light Wars map (R1; issue 30: a catalogue's map): its squares, Castles and territories, precomputed once.

Squares are named by column letter and row number (``A1``; row 1 on p1's side, p1 faces N towards the last row);
coordinates are ``(x, y)`` with A1 = (0, 0). A ``Board`` is made once per map of a catalogue and shared by every
state of every game on it; nothing here changes after it is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

FACINGS = ("N", "E", "S", "W")
STEP: dict[str, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIDE = len(LETTERS)  # columns are named by one letter; rows are kept to the same 26

Coord = tuple[int, int]


def square_name(x: int, y: int) -> str:
    return f"{LETTERS[x]}{y + 1}"


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """One map: ``width`` x ``height`` squares, each seat's Castle square and territory rows (0-based)."""

    name: str
    width: int
    height: int
    castles: tuple[str, ...]  # by seat index
    rows: tuple[tuple[int, ...], ...]  # territory rows by seat index, 0-based, ascending
    columns: str = field(init=False)
    squares: dict[str, Coord] = field(init=False)
    names: dict[Coord, str] = field(init=False)
    order: dict[str, int] = field(init=False)  # row by row from A1: a stable order of squares
    adjacent: dict[str, tuple[str, ...]] = field(init=False)
    territories: tuple[tuple[str, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        squares = {square_name(x, y): (x, y) for y in range(self.height) for x in range(self.width)}
        names = {xy: sq for sq, xy in squares.items()}
        adjacent = {}
        for sq, (x, y) in squares.items():
            adjacent[sq] = tuple(found for dx, dy in (STEP[f] for f in FACINGS)
                                 if (found := names.get((x + dx, y + dy))) is not None)
        setattr_ = object.__setattr__
        setattr_(self, "columns", LETTERS[: self.width])
        setattr_(self, "squares", squares)
        setattr_(self, "names", names)
        setattr_(self, "order", {sq: i for i, sq in enumerate(squares)})
        setattr_(self, "adjacent", adjacent)
        setattr_(self, "territories", tuple(tuple(sq for sq, (_, y) in squares.items() if y in rows)
                                            for rows in self.rows))

    @classmethod
    def of(cls, name: str, width: int, height: int, castles: Sequence[str],
           territories: Sequence[Sequence[int]]) -> Board:
        """A board from a catalogue map's numbers (territory rows 1-based, as the document gives them)."""
        return cls(name, width, height, tuple(castles), tuple(tuple(sorted(r - 1 for r in rows))
                                                               for rows in territories))

    def __eq__(self, other: object) -> bool:
        return self is other or isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.width, self.height, self.castles, self.rows)

    def name_of(self, x: int, y: int) -> str:
        return square_name(x, y)

    def neighbours(self, square: str) -> tuple[str, ...]:
        return self.adjacent[square]

    def ahead(self, square: str, facing: str, distance: int) -> str | None:
        """The square ``distance`` squares straight ahead of ``square`` facing ``facing`` (None: off the map)."""
        x, y = self.squares[square]
        dx, dy = STEP[facing]
        return self.names.get((x + dx * distance, y + dy * distance))

    def direction(self, origin: str, target: str) -> tuple[str, int] | None:
        """The facing from ``origin`` straight towards ``target`` and the distance, or None when not in one line."""
        (x0, y0), (x1, y1) = self.squares[origin], self.squares[target]
        dx, dy = x1 - x0, y1 - y0
        if dx and dy or not dx and not dy:
            return None
        if dx:
            return ("E" if dx > 0 else "W"), abs(dx)
        return ("N" if dy > 0 else "S"), abs(dy)

    def distance(self, a: str, b: str) -> int:
        (x0, y0), (x1, y1) = self.squares[a], self.squares[b]
        return abs(x0 - x1) + abs(y0 - y1)

    def castle(self, index: int) -> str:
        """Seat ``index``'s Castle square (R1)."""
        return self.castles[index]

    def territory_rows(self, index: int) -> tuple[int, ...]:
        """The rows (0-based) of seat ``index``'s territory (R1)."""
        return self.rows[index]

    def territory(self, index: int) -> tuple[str, ...]:
        return self.territories[index]

    def describe(self) -> dict[str, object]:
        """The map as the state shows it (``state_to_builtins``: width, height, castles, territory rows 1-based)."""
        seats = ("p1", "p2")
        return {"width": self.width, "height": self.height,
                "castles": {p: self.castles[i] for i, p in enumerate(seats)},
                "territory": {p: [y + 1 for y in self.rows[i]] for i, p in enumerate(seats)}}


def parse_square(square: str) -> Coord | None:
    """``"E9"`` -> (4, 8); None when it is not a square name."""
    if len(square) < 2 or square[0] not in LETTERS or not square[1:].isdigit() or square[1] == "0":
        return None
    return LETTERS.index(square[0]), int(square[1:]) - 1


def on_board(square: str, width: int, height: int) -> bool:
    xy = parse_square(square)
    return xy is not None and xy[0] < width and xy[1] < height


__all__ = ["FACINGS", "LETTERS", "MAX_SIDE", "STEP", "Board", "Coord", "on_board", "parse_square",
           "square_name"]
