"""Test helpers: build a game's events from a position, with chosen hands ("given"), and act on it.

A given is a list of events, as HOUSE_STYLE asks (``decide(fold(given), when) == then``): ``game_started`` with a
``position`` and ``hand_dealt`` facts naming the hands the test wants (evolve trusts its events).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.lords_of_war import decide, fold, parse_action, start
from engine.lords_of_war.state import State
from events.lords_of_war import HandDealt


def given(
    board: list[tuple[str, str, str]] | None = None,
    to_move: str = "p1",
    hands: dict[str, list[str]] | None = None,
    armies: tuple[Any, Any] = ("orcs", "dwarves"),
    variant: dict[str, Any] | None = None,
    kills: dict[str, dict[str, int]] | None = None,
    seed: int = 1,
) -> list[Any]:
    """Events starting a game at a position: ``board`` as (square, card, owner) triples."""
    setup: dict[str, Any] = {
        "system": "lords-of-war",
        "players": [{"id": "p1", "name": "Ann", "army": armies[0]}, {"id": "p2", "name": "Bob", "army": armies[1]}],
        "variant": variant or {},
        "seed": seed,
    }
    if board is not None:
        setup["position"] = {
            "board": [{"square": s, "card": c, "owner": o} for s, c, o in board],
            "to_move": to_move,
            "kills": kills or {},
        }
    events = list(start(setup))
    for player, cards in (hands or {}).items():
        i = 1 if player == "p1" else 2
        events[i] = HandDealt(player=player, cards=tuple(cards), count=len(cards))
    return events


def state(*args: Any, **kwargs: Any) -> State:
    return fold(given(*args, **kwargs))


def act(s: State, **action: Any) -> tuple[Any, ...]:
    return decide(s, parse_action(action))


def play(s: State, **action: Any) -> State:
    return fold(act(s, **action), s)


def changed(s: State, **changes: Any) -> State:
    """A given state that events cannot reach cheaply (an empty deck, a short hand)."""
    return msgspec.structs.replace(s, **changes)


def types(events: tuple[Any, ...]) -> list[str]:
    return [type(e).tag_name() for e in events]
