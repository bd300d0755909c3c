"""Twin Art of War table games for R7's hidden-information tests: each pair is played by the same public actions
and differs only in what p1 holds hidden (which cards of a type stay in its hand) and in which copy of a type its
player names when revealing one. p2 and a spectator must not be able to tell the twins apart."""

from __future__ import annotations

from typing import Any


def act(seat: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "player": seat, **fields}


def from_the_start(twin: str = "a") -> dict[str, Any]:
    """The twins start alike: what differs is drawn at the table."""
    return {"system": "art-of-war", "variant": {"mode": "table"}, "first": "p1",
            "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "longbow"}]}


DRAWS = {"a": ("wizard", "soldier", "soldier"), "b": ("soldier", "soldier", "archer")}


def opening_actions(twin: str) -> list[dict[str, Any]]:
    """The opening and p1's first turn. In ``a`` p1 keeps a WIZARD hidden in hand while the deck's top WIZARD is
    revealed into its kingdom, in ``b`` an ARCHER; each names the other copy of SOLDIER first; in turn 1 both draw a
    WIZARD (``a``'s second) and put one into the kingdom, naming different copies."""
    first, second = ("p1.soldier.2", "p1.soldier.1") if twin == "a" else ("p1.soldier.1", "p1.soldier.2")
    return [
        *(act("p1", "draw", card=c) for c in DRAWS[twin]),
        *(act("p2", "draw", card=c) for c in ("archer", "archer", "guardian")),
        act("p1", "redraw", again=False), act("p2", "redraw", again=False),
        act("p1", "deploy", card=first, square="B1", standby=second, kingdom="wizard"),
        act("p2", "deploy", card="p2.archer.1", square="B1", standby="p2.archer.2", kingdom="priest"),
        act("p1", "draw", card="wizard"),
        act("p1", "entry", card="p1.wizard.3" if twin == "a" else "p1.wizard.2"),
        act("p1", "end"),
    ]


HANDS = {"a": ["wizard", "wizard", "soldier"], "b": ["wizard", "soldier", "soldier"]}


def position(twin: str) -> dict[str, Any]:
    """A table game from a position whose p1 hand holds two WIZARDs (``a``) or two SOLDIERs (``b``)."""
    return {**from_the_start(), "position": {"active": "p1", "turn": 3, "players": [
        {"player": "p1", "hand": HANDS[twin], "deck": ["priest", "priest"],
         "field": [{"square": "B1", "card": "iron-king"}, {"square": "C1", "card": "soldier"}]},
        {"player": "p2", "hand": ["guardian"], "deck": ["priest"], "field": [{"square": "B1", "card": "bow-king"}]}]}}


def position_actions(twin: str) -> list[dict[str, Any]]:
    """A SOLDIER into the kingdom, then the Iron King's attack: p2's GUARDIAN cancels it, p1's WIZARD negates that
    (``a`` names its second WIZARD, ``b`` its only one)."""
    return [
        act("p1", "entry", card="p1.soldier.2" if twin == "a" else "p1.soldier.3"),
        act("p1", "battle"), act("p1", "attack", square="B1", target="B1"),
        act("p2", "support", card="p2.guardian.1", effect="guardian"),
        act("p1", "support", card="p1.wizard.2" if twin == "a" else "p1.wizard.1", effect="wizard"),
        act("p2", "pass"), act("p1", "end"),
    ]


PAIRS = {
    "opening": (from_the_start, opening_actions),
    "position": (position, position_actions),
}


def twin(pair: str, which: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(setup, actions) of twin ``which`` (a | b) of ``pair``."""
    setup, actions = PAIRS[pair]
    return setup(which), actions(which)
