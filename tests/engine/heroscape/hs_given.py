"""Givens for the HeroScape rule tests: a game from a position (docs/heroscape.md) brought to a turn in a few lines.

``at_turn(["p1 grimnak 0,-2+1,-2", "p2 izumi-samurai/1 0,-3"], p1="grimnak", p2="izumi-samurai")`` starts a table-mode
game on Twin Hill whose armies hold exactly the cards named, puts every order marker of each seat on the card given,
rolls initiative 20 to 1 for p1 and returns the state at p1's turn 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.errors import RuleError
from engine.heroscape import SYSTEM
from engine.heroscape.state import State
from events.heroscape import HeroScapeEvent


def _hex(text: str) -> list[int]:
    q, r = text.split(",")
    return [int(q), int(r)]


def position_setup(figures: Sequence[str], mode: str = "table", game: str = "master", seed: int = 7,
                   board: str = "twin-hill", max_rounds: int = 12, **position: Any) -> dict[str, Any]:
    rows = []
    cards: dict[str, list[str]] = {"p1": [], "p2": []}
    for line in figures:
        owner, figure, where, *rest = line.split()
        head, _, tail = where.partition("+")
        row: dict[str, Any] = {"owner": owner, "figure": figure, "hex": _hex(head)}
        if tail:
            row["tail"] = _hex(tail)
        for word in rest:
            if word.startswith("w"):
                row["wounds"] = int(word[1:])
        rows.append(row)
        card = figure.split("/")[0]
        if card not in cards[owner]:
            cards[owner].append(card)
    return {"system": "heroscape", "seed": seed,
            "players": [{"id": p, "name": p.upper(), "army": {"cards": cards[p]}} for p in ("p1", "p2")],
            "variant": {"mode": mode, "game": game, "map": board, "max_rounds": max_rounds},
            "position": {"figures": rows, **position}}


def play(state: State, *actions: dict[str, Any]) -> tuple[State, list[HeroScapeEvent]]:
    events: list[HeroScapeEvent] = []
    for action in actions:
        new = SYSTEM.decide(state, SYSTEM.parse_action(action))
        events += new
        state = SYSTEM.fold(new, state)
    return state, events


def start(setup: dict[str, Any]) -> State:
    return SYSTEM.fold(SYSTEM.start(setup))


def markers(player: str, card: str, x: str | None = None) -> dict[str, Any]:
    return {"type": "markers", "player": player, "markers": {"1": card, "2": card, "3": card, "X": x or card}}


def at_turn(figures: Sequence[str], p1: str, p2: str, first: str = "p1", **kwargs: Any) -> State:
    state = start(position_setup(figures, **kwargs))
    high, low = ((20,), (1,)) if first == "p1" else ((1,), (20,))
    if state.variant.mode == "table":
        state, _ = play(state, markers("p1", p1), markers("p2", p2), {"type": "roll", "player": "p1", "values": high},
                        {"type": "roll", "player": "p2", "values": low})
    else:
        state, _ = play(state, markers("p1", p1), markers("p2", p2))
    return state


def refused(state: State, action: dict[str, Any], rule: str, code: str | None = None) -> RuleError:
    with pytest.raises(RuleError) as caught:
        SYSTEM.decide(state, SYSTEM.parse_action(action))
    assert caught.value.rule == rule, caught.value
    if code is not None:
        assert caught.value.code == code, caught.value
    return caught.value


def tags(events: Sequence[HeroScapeEvent]) -> list[str]:
    return [type(e).tag_name() for e in events]
