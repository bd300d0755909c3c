"""Test helpers for games of three to six seats (§10): a game's events from a position, with chosen hands."""

from __future__ import annotations

from typing import Any

from engine.lords_of_war import start
from engine.lords_of_war.state import State, fold
from events.lords_of_war import HandDealt

TEAM_ARMIES = ("orcs", "dwarves", "orcs", "dwarves", "orcs", "dwarves")  # same-faction teams (§10 recall)
THREE_ARMIES = ("orcs", "dwarves", "dwarves")  # p1 alone, p2 and p3 the team sharing one army


def setup(seats: int, armies: tuple[Any, ...] | None = None, variant: dict[str, Any] | None = None,
          seed: int = 1) -> dict[str, Any]:
    armies = armies or (THREE_ARMIES if seats == 3 else TEAM_ARMIES[:seats])
    chosen = dict(variant or {})
    if seats in (4, 6):
        chosen.setdefault("teams", True)
    return {
        "system": "lords-of-war",
        "players": [{"id": f"p{i + 1}", "name": f"P{i + 1}", "army": army} for i, army in enumerate(armies)],
        "variant": chosen,
        "seed": seed,
    }


def given(seats: int, board: list[tuple[str, str, str]] | None = None, to_move: str = "p1",
          hands: dict[str, list[str]] | None = None, armies: tuple[Any, ...] | None = None,
          variant: dict[str, Any] | None = None, kills: dict[str, dict[str, int]] | None = None,
          seed: int = 1) -> list[Any]:
    """Events starting a game of ``seats`` at a position (``board``: (square, card, owner) triples), the hands
    replaced by ``hands`` where given (evolve trusts its events)."""
    chosen = setup(seats, armies, variant, seed)
    if board is not None:
        chosen["position"] = {
            "board": [{"square": s, "card": c, "owner": o} for s, c, o in board],
            "to_move": to_move,
            "kills": kills or {},
        }
    events = list(start(chosen))
    for player, cards in (hands or {}).items():
        events[int(player[1:])] = HandDealt(player=player, cards=tuple(cards), count=len(cards))
    return events


def state(*args: Any, **kwargs: Any) -> State:
    return fold(given(*args, **kwargs))
