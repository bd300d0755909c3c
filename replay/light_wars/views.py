"""What each view may see of a Light Wars game.

Hidden: the ``seed`` of ``game_started`` (every sealed die follows from it: ``all`` only) and a screened deployment
(``deployment_screened.placements``: its player's, until ``screen_lifted`` reveals both). The state view of another
seat or a spectator shows a screened unit without square or facing. Every die, every attack and every other event
is public: a die is a fact as soon as it is rolled.
"""

from __future__ import annotations

from typing import Any

from engine.light_wars.state import State, state_to_builtins
from events.light_wars import DeploymentScreened, GameStarted
from replay.errors import UnknownView
from replay.plugin import ALL, hide_secrets, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed",)}
        case DeploymentScreened(player=player):
            return {player: ("placements",)}
        case _:
            return {}


def redacted_event(event: Any, view: str) -> Any:
    """Every Light Wars event is seen by every view, redacted by ``secrets``."""
    if view == ALL:
        return event
    return hide_secrets(event, view, secrets(event))


def state_view(state: State, view: str) -> dict[str, Any]:
    data = state_to_builtins(state)
    if view == ALL:
        return data
    seats = [s["id"] for s in data["seats"]]
    if view != "spectator" and seats and view not in seats:
        raise UnknownView(f"unknown view {view!r}: one of all, spectator, {', '.join(seats)}")
    data["units"] = [
        {**u, "square": None, "facing": None} if u["status"] == "screened" and not sees(view, u["owner"]) else u
        for u in data["units"]
    ]
    return data


__all__ = ["redacted_event", "secrets", "state_view"]
