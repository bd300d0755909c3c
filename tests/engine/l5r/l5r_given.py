"""Givens for the L5R rule tests: games started from a position (docs/l5r.md, "Position format") in a few lines.

``given(p1={"home": [...], "hand": [...]}, p2={...})`` starts a sealed game at p1's action phase of turn 1 with
those cards; ``play(game, action, ...)`` decides and folds each action and returns the game; ``refused(game,
action)`` returns the RuleError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.errors import RuleError
from engine.l5r import SYSTEM
from engine.l5r.state import State
from events.l5r import L5REvent

PROVINCES = [{"card": "rice-paddy", "face_up": True}, {"card": "market-town", "face_up": False},
             {"card": "hiruma-kage", "face_up": True}, {"card": "silver-mine", "face_up": True}]
FATE = ["ashigaru", "heavy-infantry", "ancestral-sword", "charge", "ambush", "feign-death", "fan-of-command",
        "jade-strike", "elite-guard", "archer-corps"]
DYNASTY = ["hida-o-ushi", "rice-paddy", "market-town", "hida-yakamo", "silver-mine", "hiruma-kage"]


@dataclass
class Game:
    state: State
    events: list[L5REvent] = field(default_factory=list)

    def since(self, n: int) -> list[L5REvent]:
        return self.events[n:]

    def tags(self, n: int = 0) -> list[str]:
        return [type(e).tag_name() for e in self.events[n:]]


def player(seat: str, **spec: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"player": seat, "honor": 10, "home": [], "provinces": PROVINCES, "hand": [],
                           "dynasty": DYNASTY, "fate": FATE}
    out.update(spec)
    return out


def setup(p1: dict[str, Any] | None = None, p2: dict[str, Any] | None = None, active: str = "p1",
          duel: dict[str, Any] | None = None, mode: str = "sealed", decks: tuple[str, str] = ("crab", "crane"),
          turn: int = 1) -> dict[str, Any]:
    position: dict[str, Any] = {"turn": turn, "active": active,
                                "players": [player("p1", **(p1 or {})), player("p2", **(p2 or {}))]}
    if duel is not None:
        position["duel"] = duel
    out: dict[str, Any] = {"system": "l5r", "players": [{"id": "p1", "name": "Ann", "army": decks[0]},
                                                        {"id": "p2", "name": "Bob", "army": decks[1]}],
                           "variant": {"mode": mode}, "position": position}
    if mode == "sealed":
        out["seed"] = 7
    return out


def given(**kwargs: Any) -> Game:
    events = list(SYSTEM.start(setup(**kwargs)))
    return Game(SYSTEM.fold(events), events)


def play(game: Game, *actions: dict[str, Any]) -> Game:
    for action in actions:
        produced = SYSTEM.decide(game.state, SYSTEM.parse_action(action))
        game.events += produced
        game.state = SYSTEM.fold(produced, game.state)
    return game


def refused(game: Game, action: dict[str, Any]) -> RuleError:
    before = game.state
    with pytest.raises(RuleError) as error:
        SYSTEM.decide(game.state, SYSTEM.parse_action(action))
    assert game.state == before
    return error.value


def card(seat: str, card_id: str, copy: int = 1) -> str:
    return f"{seat}.{card_id}.{copy}"


def passes(game: Game, *seats: str) -> Game:
    return play(game, *({"type": "pass", "player": s} for s in seats))
