"""What each view may see of an Art of War game (§8: hands, deck order and the re-draw hidden).

Secrets: ``game_started.seed`` (all only); ``card_drawn.card`` and ``redraw_decided.again``/``hand`` (their
player's). The state view of another seat or a spectator shows hands and decks as counts and whether a player
redrew as ``decided``; battlefields, standby queues, kingdoms and graveyards are public.
"""

from __future__ import annotations

from typing import Any

from engine.art_of_war.state import State, state_to_builtins
from events.art_of_war import CardDrawn, GameStarted, RedrawDecided
from replay.plugin import ALL, SystemViews, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed", "position")}
        case CardDrawn(player=player):
            return {player: ("card",)}
        case RedrawDecided(player=player):
            return {player: ("again", "hand")}
        case _:
            return {}


def state_json(state: State) -> dict[str, Any]:
    """``state_to_builtins`` with the hands' and decks' sizes, which every view is shown."""
    data = state_to_builtins(state)
    for p in data["players"]:
        p["hand_count"] = len(p["hand"])
        p["deck_count"] = len(p["deck"])
    return data


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    data["seed"] = None
    data["reshuffled"] = None
    for p in data["players"]:
        p["deck"] = None
        if not sees(view, p["id"]):
            p["hand"] = None
            if p["redraw"] is not None:
                p["redraw"] = "decided"
    return data


VIEWS = SystemViews(secrets=secrets, state_json=state_json, hide=hide)
redacted_event = VIEWS.redacted_event
state_view = VIEWS.state_view

__all__ = ["VIEWS", "redacted_event", "secrets", "state_view"]
