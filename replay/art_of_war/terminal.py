"""Both battlefields drawn in a terminal for ``warlog replay``: p2's on top (its back row first), p1's below, each
unit as its type's letter (K for a KING) with ``/`` when sideways and its damage this turn; then each player's
standby queue, kingdom by type, graveyard and hand/deck counts."""

from __future__ import annotations

from typing import Any

from engine.art_of_war.catalogue import BASIC_TYPES, BOOKS, CardBook, kind_of

STYLES = ("full", "compact")


def _cell(book: CardBook, unit: dict[str, Any] | None, compact: bool) -> str:
    if unit is None:
        return " . " if compact else "  .   "
    card = book.card(unit["card"])
    letter = "K" if card.king else card.name[0]
    text = letter + ("/" if not unit["upright"] else "") + (f"{unit['damage']}" if unit["damage"] else "")
    return f"{text:^3}" if compact else f"{text:^6}"


def _rows(book: CardBook, player: dict[str, Any], top: bool, compact: bool) -> list[str]:
    units = {slot["square"]: slot["unit"] for slot in player["field"]}
    order = ("2", "1") if top else ("1", "2")
    lines = []
    for row in order:
        cells = "".join(_cell(book, units.get(f"{c}{row}"), compact) for c in "ABC")
        lines.append(f"  {player['id']} {'front' if row == '1' else 'back '} |{cells}|")
    return lines


def _side(book: CardBook, player: dict[str, Any]) -> str:
    kingdom = {t: sum(1 for c in player["kingdom"] if kind_of(c) == t) for t in BASIC_TYPES}
    standby = " ".join(book.name(c)[:3] for c in player["standby"]) or "-"
    hand = player.get("hand_count", len(player["hand"] or ()))
    deck = player.get("deck_count", len(player["deck"] or ()))
    kingdom_text = " ".join(f"{t[:3]}{n}" for t, n in kingdom.items() if n) or "-"
    return f"{player['id']}: standby [{standby}] kingdom {kingdom_text} · grave {len(player['graveyard'])} · hand " \
        f"{hand} · deck {deck}"


def render(state_json: dict[str, Any], style: str = "full") -> list[str]:
    players = state_json["players"]
    if not players:
        return ["(before the first event)"]
    compact = style == "compact"
    book = BOOKS.known(state_json.get("catalogue"))  # the game's cards (its state names its catalogue)
    p1, p2 = players[0], players[1]
    width = 9 if compact else 18
    return _rows(book, p2, True, compact) + ["  " + "-" * (width + 11)] + _rows(book, p1, False, compact) + \
        [_side(book, p2), _side(book, p1)]


PHASES = {"redraw": "the re-draw", "deploy": "the opening deployment", "turn": "turn"}


def headline(state_json: dict[str, Any]) -> str:
    if state_json["phase"] == "over":
        return f"over ({state_json['end_reason']}): {state_json.get('winner') or 'a draw'}"
    if state_json["phase"] == "setup":
        return "before the game"
    who = " and ".join(state_json["to_act"]) or "nobody"
    if state_json.get("chain"):
        moment = "an answer (R3)"
    elif state_json.get("conscript"):
        moment = "conscription"
    else:
        moment = {"arranged": "arranged", "battle": "battle"}.get(state_json.get("action") or "", "arrange or battle")
    if state_json["phase"] != "turn":
        return f"{PHASES.get(state_json['phase'], state_json['phase'])} · {who} to act"
    return f"turn {state_json['turn']} · {state_json['active']}'s turn · {who}: {moment}"


def tally(state_json: dict[str, Any]) -> str:
    return " | ".join(f"{p['id']} kingdom {len(p['kingdom'])}, graveyard {len(p['graveyard'])}"
                      for p in state_json["players"])


__all__ = ["STYLES", "headline", "render", "tally"]
