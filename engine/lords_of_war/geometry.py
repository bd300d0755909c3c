"""Squares, directions and player frames (§1).

A square is kept as one int, ``key = (x + OFFSET) * STRIDE + (y + OFFSET)``, so a neighbour is ``key + delta``
with ``delta = dx * STRIDE + dy``: the same arithmetic serves the 7x6 mat and the unbounded variant (§9).
x is the column (A = 0), y the row (row 1 = 0, p1's edge). Names: ``"C3"`` on the mat, ``"x,y"`` unbounded.
"""

from __future__ import annotations

STRIDE = 1 << 21
OFFSET = 1 << 20
COLUMNS = 7
ROWS = 6
COLUMN_LETTERS = "ABCDEFG"

# Card directions in the owner's frame; N = straight away from the owner (board-north for p1).
DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_STEPS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}


def delta(dx: int, dy: int) -> int:
    return dx * STRIDE + dy


def frame(dx: int, dy: int, owner: int) -> tuple[int, int]:
    """An offset in the owner's frame -> board offset. p2 (owner 1) is rotated 180° (§1)."""
    return (dx, dy) if owner == 0 else (-dx, -dy)


NEIGHBOUR_DELTAS: tuple[int, ...] = tuple(delta(dx, dy) for dx, dy in DIRECTION_STEPS.values())


def key(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def coords(k: int) -> tuple[int, int]:
    return k // STRIDE - OFFSET, k % STRIDE - OFFSET


def on_mat(k: int) -> bool:
    x, y = coords(k)
    return 0 <= x < COLUMNS and 0 <= y < ROWS


MAT_SQUARES: frozenset[int] = frozenset(key(x, y) for x in range(COLUMNS) for y in range(ROWS))


def board_order(k: int) -> tuple[int, int]:
    """Sort key: row, then column, from p1's view (R13, state board order)."""
    return k % STRIDE, k // STRIDE


def _spell(k: int, unbounded: bool) -> str:
    x, y = coords(k)
    if unbounded:
        return f"{x},{y}"
    return f"{COLUMN_LETTERS[x]}{y + 1}"


class _SquareNames(dict[int, str]):
    """Key -> square name, remembered: ``decide`` names every square in the events it returns (several per
    elimination), and spelling one out cost ~0.5 µs. Unbounded names are forgotten all at once past ``limit``."""

    def __init__(self, unbounded: bool, limit: int = 65536) -> None:
        super().__init__()
        self.unbounded = unbounded
        self.limit = limit

    def __missing__(self, k: int) -> str:
        text = _spell(k, self.unbounded)
        if len(self) >= self.limit:
            self.clear()
        self[k] = text
        return text


MAT_NAMES = _SquareNames(unbounded=False)
UNBOUNDED_NAMES = _SquareNames(unbounded=True)


def name(k: int, unbounded: bool) -> str:
    return (UNBOUNDED_NAMES if unbounded else MAT_NAMES)[k]


def parse(text: str, unbounded: bool) -> int | None:
    """A square name -> key; None when the name is not a square of this geometry's naming."""
    if not isinstance(text, str):
        return None
    if unbounded:
        parts = text.split(",")
        if len(parts) != 2:
            return None
        try:
            x, y = int(parts[0].strip()), int(parts[1].strip())
        except ValueError:
            return None
        if abs(x) >= OFFSET or abs(y) >= OFFSET:
            return None
        return key(x, y)
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    x = ord(text[0].upper()) - ord("A")
    y = int(text[1:]) - 1
    return key(x, y)


class _SquareKeys(dict[str, int]):
    """Square name -> key for names known to be valid (recorded events): ``parse``, remembered.

    ``evolve``'s hot path: a hit is one dict lookup (an ``lru_cache`` on ``(text, unbounded)`` cost ~3x more). The
    mat has 42 names; the unbounded variant's names are remembered up to ``limit``, then forgotten all at once.
    """

    def __init__(self, unbounded: bool, limit: int = 65536) -> None:
        super().__init__()
        self.unbounded = unbounded
        self.limit = limit

    def __missing__(self, text: str) -> int:
        k = parse(text, self.unbounded)
        assert k is not None, text
        if len(self) >= self.limit:
            self.clear()
        self[text] = k
        return k


MAT_KEYS = _SquareKeys(unbounded=False)
UNBOUNDED_KEYS = _SquareKeys(unbounded=True)


def key_of(text: str, unbounded: bool) -> int:
    """``parse`` for names known to be valid (recorded events), remembered."""
    return (UNBOUNDED_KEYS if unbounded else MAT_KEYS)[text]


def chebyshev(a: int, b: int) -> int:
    ax, ay = coords(a)
    bx, by = coords(b)
    return max(abs(ax - bx), abs(ay - by))


# R1: the challenge squares (same numbers in the unbounded variant: 2,2 and 4,3).
CHALLENGE_SQUARES: tuple[int, int] = (key(2, 2), key(4, 3))
