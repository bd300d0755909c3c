"""The Lords of War mat as text for the terminal: a grid of cards with owners and arrows in compact form.

Each square is three lines of nine characters. The middle line holds the card's short name and its owner
(``ORav^`` = Orc Ravager of p1, facing up the screen; ``v`` = p2's, facing down); the digits around it are the
attack values in the directions they point on the board (p2's cards are turned 180°, so their N arrow points down
the screen). Row 6 (p2's edge) is at the top. ``render`` draws it in three sizes (``STYLES``) for the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lords_of_war import geometry as geo
from engine.lords_of_war.catalogue import Card, seen_table

BOARD_NAMES: dict[tuple[int, int], str] = {step: name for name, step in geo.DIRECTION_STEPS.items()}


def cards_of_view(state_json: dict[str, Any]) -> Mapping[str, Card]:
    """The cards of the game a state view is of: its catalogue's (issue 30: the view names it by ``catalogue`` id;
    this process has its table once it has read the game), the default's without one; none when unknown (the
    mat then shows card ids, without arrows)."""
    table = seen_table(state_json.get("catalogue"))
    return table.cards if table is not None else {}


def abbreviation(card_id: str, cards: Mapping[str, Card]) -> str:
    """Four letters: the initials of the first words and the start of the last ("Orc Ravager" -> "ORav")."""
    words = cards[card_id].name.replace("-", " ").split() if card_id in cards else [card_id]
    head = "".join(w[0] for w in words[:-1])[:2]
    return (head + words[-1])[:4]


def board_arrows(card_id: str, owner: int, cards: Mapping[str, Card]) -> dict[str, int]:
    """Attack values keyed by the board direction they point in (N = up the screen)."""
    card = cards.get(card_id)
    if card is None:
        return {}
    out = {}
    for direction, value in card.attacks:
        out[BOARD_NAMES[geo.frame(*geo.DIRECTION_STEPS[direction], owner)]] = value
    return out


OWNER_MARKS = ("^", "v")  # p1's cards face up the screen, p2's down


def frames(state_json: dict[str, Any]) -> dict[str, int]:
    """Each seat's frame: 0 faces up the screen (p1, and its team-mates of §10), 1 down (p2's side)."""
    players = state_json.get("players") or []
    return {p["id"]: int(p.get("frame", i % 2)) for i, p in enumerate(players)} or {"p1": 0, "p2": 1}


def mark(unit: dict[str, Any], seats: dict[str, int]) -> str:
    """The owner mark after a card's name: ``^``/``v`` for two players; with more seats (§10) the seat's number,
    the facing being told by the arrows and the legend."""
    if len(seats) > 2:
        return unit["owner"][1:]
    return OWNER_MARKS[seats.get(unit["owner"], 0)]


def _cell(unit: dict[str, Any] | None, square: str, seats: dict[str, int], cards: Mapping[str, Card]) -> list[str]:
    if unit is None:
        return [" " * 9, f"{square:^9}", " " * 9]
    owner = seats.get(unit["owner"], 0)
    a = {k: str(v) for k, v in board_arrows(unit["card"], owner, cards).items()}
    g = a.get
    card = cards.get(unit["card"])
    ranged = card is not None and card.is_ranged
    return [
        f"{g('NW', ' ')}   {g('N', ' ')}   {g('NE', ' ')}",
        f"{g('W', ' ')} {abbreviation(unit['card'], cards):>4}{mark(unit, seats)} {g('E', ' ')}",
        f"{g('SW', ' ')}  {'*' if ranged else ' '}{g('S', ' ')}    {g('SE', ' ')}"[:9],
    ]


STYLES = ("full", "compact", "tiny")  # largest first: what a terminal shows is the largest that fits


def render(state_json: dict[str, Any], style: str = "full") -> list[str]:
    """The mat of a state view (``state_view`` JSON) as lines of text.

    ``full``: squares of three lines between rules, and a legend of the cards shown (what a pipe gets).
    ``compact``: the same squares without the rules between rows (each row's bottom line is underlined with ``_``)
    and no legend: 19 lines for the 7x6 mat, so the mat, the status and the explanation fit 80x24.
    ``tiny``: one line per square, no arrows (a small terminal, or a wide unbounded mat).
    """
    units = {u["square"]: u for u in state_json["board"]}
    seats = frames(state_json)
    cards = cards_of_view(state_json)
    if state_json.get("variant", {}).get("unbounded"):
        coords = [tuple(int(v) for v in s.split(",")) for s in units] or [(2, 2), (4, 3)]
        xs = range(min(c[0] for c in coords) - 1, max(c[0] for c in coords) + 2)
        ys = range(max(c[1] for c in coords) + 1, min(c[1] for c in coords) - 2, -1)
        name = lambda x, y: f"{x},{y}"  # noqa: E731
        col_label = lambda x: str(x)  # noqa: E731
        row_label = lambda y: str(y)  # noqa: E731
    else:
        xs = range(geo.COLUMNS)
        ys = range(geo.ROWS - 1, -1, -1)
        name = lambda x, y: f"{geo.COLUMN_LETTERS[x]}{y + 1}"  # noqa: E731
        col_label = lambda x: geo.COLUMN_LETTERS[x]  # noqa: E731
        row_label = lambda y: str(y + 1)  # noqa: E731
    if style == "tiny":
        lines = ["     " + " ".join(f"{col_label(x):^5}" for x in xs)]
        for y in ys:
            marks = []
            for x in xs:
                unit = units.get(name(x, y))
                marks.append(f"{abbreviation(unit['card'], cards):>4}{mark(unit, seats)}" if unit
                             else f"{name(x, y):^5}")
            lines.append(f"{row_label(y):>3} |" + "|".join(marks) + "|")
        return lines
    if style == "compact":
        lines = ["     " + " ".join(f"{col_label(x):_^9}" for x in xs)]
        for y in ys:
            cells = [_cell(units.get(name(x, y)), name(x, y), seats, cards) for x in xs]
            cells = [[c[0], c[1], c[2].replace(" ", "_")] for c in cells]
            for i in range(3):
                label = f"{row_label(y):>3} " if i == 1 else "    "
                lines.append(label + "|" + "|".join(c[i] for c in cells) + "|")
        return lines
    rule = "    +" + "+".join("-" * 9 for _ in xs) + "+"
    lines = ["     " + " ".join(f"{col_label(x):^9}" for x in xs), rule]
    for y in ys:
        cells = [_cell(units.get(name(x, y)), name(x, y), seats, cards) for x in xs]
        for i in range(3):
            label = f"{row_label(y):>3} " if i == 1 else "    "
            lines.append(label + "|" + "|".join(c[i] for c in cells) + "|")
        lines.append(rule)
    legend = sorted({f"{abbreviation(u['card'], cards)} {cards[u['card']].name if u['card'] in cards else u['card']}"
                     for u in units.values()})
    if len(seats) > 2:  # §10
        up = " ".join(p for p, f in seats.items() if f == 0)
        down = " ".join(p for p, f in seats.items() if f == 1)
        lines.append(f"  3 after a name: p3's card ({up} face up, {down} down) · digits: attacks where the arrows "
                     "point · * ranged")
    else:
        lines.append("  ^ p1's card, v p2's · digits: attacks where the arrows point · * ranged")
    width = max(75, len(rule))
    for entry in legend:  # as many entries a line as fit the mat's width
        head = lines[-1].startswith(("  ^", "  3 after"))
        if len(lines[-1]) > 2 and not head and len(lines[-1]) + 3 + len(entry) <= width:
            lines[-1] += " · " + entry
        else:
            lines.append("  " + entry)
    return lines


def status(state_json: dict[str, Any]) -> str:
    """The position in one line: ``headline`` then ``tally``."""
    return f"{headline(state_json)} · {tally(state_json)}"


def headline(state_json: dict[str, Any]) -> str:
    """The turn and who is to do what (or how the game ended)."""
    parts = [f"turn {state_json['turn']}"]
    if state_json["phase"] == "over":
        parts.append(f"over: {state_json['winner']} ({state_json['end_reason']})")
    elif state_json.get("active"):
        parts.append(f"{state_json['active']} to {state_json['phase']}")
    return " · ".join(parts)


def tally(state_json: dict[str, Any]) -> str:
    """Kills, hands, decks, and the cards in hand the view may see."""
    kills = state_json["kills"]
    hands = state_json["hands"]
    parts = ["kills " + ", ".join(f"{p} {k['total']} ({k['commanders']} cmd)" for p, k in kills.items())]
    parts.append("hands " + ", ".join(f"{p} {h['count']}" for p, h in hands.items()))
    parts.append("decks " + ", ".join(f"{p} {n}" for p, n in state_json["deck"].items()))
    table = cards_of_view(state_json)
    for p, hand in hands.items():
        cards = hand.get("cards") or hand.get("known")
        if cards:
            parts.append(f"{p} holds " + " ".join(abbreviation(c, table) for c in cards))
    return " · ".join(parts)
