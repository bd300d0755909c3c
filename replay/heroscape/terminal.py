"""The terminal picture of a HeroScape map: one 4-character cell per hex, rows by ``r``, shifted half a cell a row.

A cell is the hex's level (two digits) and a mark: ``~`` water, ``=`` road, ``:`` sand, ``^`` rock, ``.`` grass; a
glyph shows its initial in upper case instead; a figure shows its letter (upper case for seat p1, lower for p2)
instead. Hexes missing from the map are blank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.heroscape.geometry import Board, Cell, Hex

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


STYLES = ("full", "compact")


def _board(state_json: dict[str, Any]) -> Board:
    cells = {(q, r): Cell(level, terrain, glyph) for q, r, level, terrain, glyph in state_json["map"]["cells"]}
    used = {tuple(h) for h in state_json["map"].get("used_glyphs", [])}
    for h in used:
        c = cells[h]
        cells[h] = Cell(c.level, c.terrain, None)
    return Board(cells)


def _letter(figure: dict[str, Any]) -> str:
    letter = figure["name"][0]
    return letter.upper() if figure["owner"] == "p1" else letter.lower()


def render(state_json: dict[str, Any], style: str = "full") -> list[str]:
    """The map with each figure's letter (p1 upper case, p2 lower), then each side's figures with wounds."""
    if state_json.get("map") is None:
        return ["(before the first event)"]
    board = _board(state_json)
    placed = [f for f in state_json["figures"] if f["status"] == "placed" and f["hex"]]
    marks: dict[Hex, str] = {}
    for f in placed:
        marks[tuple(f["hex"])] = _letter(f)
        if f["tail"]:
            marks[tuple(f["tail"])] = _letter(f)
    lines = render_map(board, marks).rstrip("\n").split("\n")
    if style == "compact":
        return lines
    for seat in state_json["seats"]:
        mine = [f for f in placed if f["owner"] == seat["id"]]
        shown = ", ".join(f"{_letter(f)} {f['figure']}" + (f" {f['wounds']}/{f['life']}" if f["wounds"] else "")
                          for f in mine) or "no figure"
        lines.append(f"{seat['id']}: {shown}")
    lines.append("levels: 2 digits; ~ water, = road, : sand, ^ rock, . grass; glyphs and figures by initial")
    return lines


PHASES = {"placement": "placing the armies", "markers": "order markers", "initiative": "initiative"}


def headline(state_json: dict[str, Any]) -> str:
    if state_json["phase"] == "over":
        return f"over ({state_json['end_reason']}): {state_json.get('winner') or 'a draw'}"
    if state_json["phase"] == "setup":
        return "before the game"
    who = " and ".join(state_json["to_act"]) or "nobody"
    due = state_json.get("due") or []
    rolling = f" · {due[0]['player']} rolls for {due[0]['purpose']}" if due else ""
    if state_json["phase"] != "turn":
        return f"round {state_json['round']} · {PHASES.get(state_json['phase'], state_json['phase'])} · {who} to " \
            f"act{rolling}"
    turn = state_json.get("turn") or {}
    return f"round {state_json['round']} · {state_json['active']}'s turn {turn.get('number')} " \
        f"({turn.get('card')}){rolling}"


def tally(state_json: dict[str, Any]) -> str:
    return " | ".join(f"{p} {v} points on the map" for p, v in state_json["points"].items())


__all__ = ["STYLES", "headline", "render", "render_map", "tally"]
