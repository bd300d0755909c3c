"""What each view may see of a HeroScape game (§2: order markers are secret until revealed).

Secrets: ``game_started.seed`` (all only: every sealed die follows from it) and ``markers_placed.markers`` (its
player's). A marker is shown by ``marker_revealed`` when its turn comes; the decoy X never. The state view of another
seat or a spectator has no ``markers`` of the other players. Every die, move and attack is public.
"""

from __future__ import annotations

from typing import Any

from engine.heroscape.state import State, state_to_builtins
from events.heroscape import GameStarted, MarkersPlaced
from replay.plugin import ALL, SystemViews, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed",)}
        case MarkersPlaced(player=player):
            return {player: ("markers",)}
        case _:
            return {}


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    data["markers"] = {p: (m if sees(view, p) else ("placed" if m is not None else None))
                       for p, m in data["markers"].items()}
    return data


VIEWS = SystemViews(secrets=secrets, state_json=state_to_builtins, hide=hide)
redacted_event = VIEWS.redacted_event
state_view = VIEWS.state_view

__all__ = ["VIEWS", "redacted_event", "secrets", "state_view"]
