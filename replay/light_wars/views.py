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
from replay.plugin import ALL, SystemViews, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed",)}
        case DeploymentScreened(player=player):
            return {player: ("placements",)}
        case _:
            return {}


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    data["units"] = [
        {**u, "square": None, "facing": None} if u["status"] == "screened" and not sees(view, u["owner"]) else u
        for u in data["units"]
    ]
    return data


VIEWS = SystemViews(secrets=secrets, state_json=state_to_builtins, hide=hide)  # every event is seen, redacted
redacted_event = VIEWS.redacted_event
state_view = VIEWS.state_view

__all__ = ["VIEWS", "redacted_event", "secrets", "state_view"]
