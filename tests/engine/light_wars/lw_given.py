"""Givens for the Light Wars rule tests: games started from a position (docs/light-wars.md) in a few lines.

``position_game(["p1 K E1 N", "p1 C1 C4 E", "p2 K E9 S", "p2 A1 D4 N"], armies=...)`` starts a table-mode game (the
dice entered by the test) at p1's tactics step of turn 1, with custom armies holding exactly the units named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.errors import RuleError
from engine.light_wars import SYSTEM
from engine.light_wars.catalogue import LETTERS
from engine.light_wars.state import State
from events.light_wars import LightWarsEvent

TYPES = LETTERS  # "I" -> "infantry"


def army_for(ids: Sequence[str], tactics: Sequence[str] = ()) -> dict[str, Any]:
    """A custom army holding the units ``ids`` name (``K``, ``I1``, ``I2``, ``C1``...), numbered in that order."""
    ordered = sorted(ids, key=lambda i: (i != "K", i[0], int(i[1:] or 0)))
    return {"units": [TYPES[i[0]] for i in ordered], "tactics": list(tactics)}


def position_setup(units: Sequence[str], to_move: str = "p1", mode: str = "table", tactics: dict[str, list[str]]
                   | None = None, extra_units: dict[str, list[str]] | None = None, seed: int = 7,
                   variant: dict[str, Any] | None = None, **position: Any) -> dict[str, Any]:
    placed = [u.split() for u in units]
    ids = {p: [uid for owner, uid, *_ in placed if owner == p] + list((extra_units or {}).get(p, ()))
           for p in ("p1", "p2")}
    players = [{"id": p, "name": p.upper(), "army": army_for(ids[p], (tactics or {}).get(p, ()))}
               for p in ("p1", "p2")]
    return {
        "system": "light-wars", "players": players, "seed": seed,
        "variant": {"mode": mode, **(variant or {})},
        "position": {"units": [{"owner": o, "unit": u, "square": s, "facing": f} for o, u, s, f in placed],
                     "to_move": to_move, **position},
    }


class Game:
    """A game in progress: its events and state; ``act`` decides and folds, ``refused`` expects a RuleError."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.events: list[LightWarsEvent] = list(SYSTEM.start(setup))
        self.state: State = SYSTEM.fold(self.events)

    def act(self, action: dict[str, Any]) -> tuple[LightWarsEvent, ...]:
        produced = SYSTEM.decide(self.state, SYSTEM.parse_action(action))
        self.events.extend(produced)
        self.state = SYSTEM.fold(produced, self.state)
        return produced

    def refused(self, action: dict[str, Any], code: str, rule: str) -> RuleError:
        with pytest.raises(RuleError) as refusal:
            SYSTEM.decide(self.state, SYSTEM.parse_action(action))
        assert (refusal.value.code, refusal.value.rule) == (code, rule), refusal.value
        return refusal.value

    def unit(self, owner: str, unit: str) -> dict[str, Any] | None:
        shown = SYSTEM.state_to_builtins(self.state)
        return next((u for u in shown["units"] if u["owner"] == owner and u["unit"] == unit), None)

    @property
    def shown(self) -> dict[str, Any]:
        return SYSTEM.state_to_builtins(self.state)


def position_game(units: Sequence[str], tiles: Sequence[str] = (), **kwargs: Any) -> Game:
    """A position game past ``to_move``'s tactics step (declaring ``tiles``)."""
    game = Game(position_setup(units, **kwargs))
    to_move = kwargs.get("to_move", "p1")
    game.act({"type": "tactics", "player": to_move, "tiles": list(tiles)})
    return game


def tags(events: Sequence[LightWarsEvent]) -> list[str]:
    return [type(e).tag_name() for e in events]
