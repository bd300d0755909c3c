"""The Light Wars map in a terminal: a 9 x 9 grid, row 9 (p2's side) at the top, each unit with a facing arrow.

A unit is its id (``I1``, ``K``) in capitals for p1 and small letters for p2, then its facing arrow (``^`` N,
``>`` E, ``v`` S, ``<`` W): ``C1>`` is p1's Cavalry C1 facing E, ``kv`` p2's King facing S. ``#`` marks a Castle,
``.`` an empty square of a territory, `` `` the rest (the compact style draws two characters a square).
"""

from __future__ import annotations

from typing import Any

from engine.light_wars.board import LETTERS as COLUMNS
from engine.light_wars.geometry import ARROWS

STYLES = ("full", "compact")


def _glyph(unit: dict[str, Any], compact: bool) -> str:
    name = unit["unit"][:1] if compact else unit["unit"]
    name = name.upper() if unit["owner"] == "p1" else name.lower()
    return name + ARROWS.get(unit["facing"] or "", "?")


def render(state_json: dict[str, Any], style: str = "full") -> list[str]:
    compact = style == "compact"
    width = 3 if compact else 5
    size = state_json["map"]
    cols, rows = COLUMNS[: size["width"]], size["height"]
    where = {u["square"]: u for u in state_json["units"] if u["square"] and u["status"] not in ("reserve",)}
    castles = set(size["castles"].values())
    home_rows = {r for rows_of in size["territory"].values() for r in rows_of}
    lines = ["   " + "".join(f"{c:^{width}}" for c in cols)]
    for row in range(rows, 0, -1):
        cells = []
        for col in cols:
            square = f"{col}{row}"
            unit = where.get(square)
            if unit is not None:
                mark = _glyph(unit, compact)
            elif square in castles:
                mark = "#"
            else:
                mark = "." if row in home_rows else "·" if not compact else " "
            cells.append(f"{mark:^{width}}")
        lines.append(f"{row:>2} " + "".join(cells))
    off_map = [u for u in state_json["units"] if not u["square"] or u["status"] == "reserve"]
    if off_map and not compact:
        hidden = [u for u in off_map if u["status"] == "screened"]
        waiting = [u for u in off_map if u["status"] != "screened"]
        if waiting:
            lines.append("to deploy: " + " ".join(f"{u['owner']} {u['unit']}" for u in waiting))
        if hidden:
            lines.append("behind the screen: " + " ".join(f"{u['owner']} {u['unit']}" for u in hidden))
    if state_json["removed"] and not compact:
        lines.append("removed: " + " ".join(f"{r['player']} {r['unit']}" for r in state_json["removed"]))
    return lines


PHASES = {
    "roll_off": "roll-off", "deploy": "deployment", "choose_first": "choose the first player",
    "tactics": "tactics step", "actions": "action phase", "roll": "dice of an attack",
}


def headline(state_json: dict[str, Any]) -> str:
    if state_json["phase"] == "over":
        winner = state_json.get("winner")
        result = "a draw" if winner in (None, "draw") else f"{winner} won"
        return f"over ({state_json['end_reason']}): {result}"
    who = " and ".join(state_json["to_act"]) or "nobody"
    phase = PHASES.get(state_json["phase"], state_json["phase"])
    if state_json["turn"]:
        return f"turn {state_json['turn']} (marker {state_json['marker']}) · {who}: {phase}"
    return f"before the battle · {who}: {phase}"


def tally(state_json: dict[str, Any]) -> str:
    scores = " · ".join(f"{p} {n}" for p, n in state_json["scores"].items())
    stock = " · ".join(f"{p} {n}" for p, n in state_json["stock"].items())
    tiles = state_json["tactics_in_effect"]
    return f"scores {scores} | bases in stock {stock}" + (f" | tactics: {', '.join(tiles)}" if tiles else "")


__all__ = ["STYLES", "headline", "render", "tally"]
