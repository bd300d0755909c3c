"""The terminal picture of a HeroScape map: one 4-character cell per hex, rows by ``r``, shifted half a cell a row.

A cell is the hex's level (two digits) and a mark: ``~`` water, ``=`` road, ``:`` sand, ``^`` rock, ``.`` grass; a
glyph shows its initial in upper case instead; a figure shows its letter (upper case for seat p1, lower for p2)
instead. Hexes missing from the map are blank.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.heroscape.geometry import Board, Hex

MARKS = {"water": "~", "road": "=", "sand": ":", "rock": "^", "grass": "."}


def render_map(board: Board, figures: Mapping[Hex, str] | None = None) -> str:
    """The map as text; ``figures`` maps a hex to the one letter drawn there."""
    figures = figures or {}
    qs = [q for q, _ in board.cells]
    rs = [r for _, r in board.cells]
    lines: list[str] = []
    blank_prefix: list[int] = []
    for r in range(min(rs), max(rs) + 1):
        row: list[str] = []
        for q in range(min(qs), max(qs) + 1):
            cell = board.cells.get((q, r))
            if cell is None:
                row.append("    ")
                continue
            mark = figures.get((q, r)) or (cell.glyph[0].upper() if cell.glyph else MARKS.get(cell.terrain, "?"))
            row.append(f"{cell.level:2d}{mark} ")
        lines.append(("  " * (r - min(rs)) + "".join(row)).rstrip())
        leading = next((i for i, text in enumerate(row) if text.strip()), len(row))
        blank_prefix.append(2 * (r - min(rs)) + 4 * leading)
    width = min(blank_prefix)
    return "\n".join(line[width:] for line in lines) + "\n"
