"""What each view may see of a HeroScape game (§2: order markers are secret until revealed).

Secrets: ``game_started.seed`` (all only: every sealed die follows from it) and ``markers_placed.markers`` (its
player's). A marker is shown by ``marker_revealed`` when its turn comes; the decoy X never. The state view of another
seat or a spectator has no ``markers`` of the other players. Every die, move and attack is public.
"""

from __future__ import annotations

from typing import Any

from engine.heroscape.state import State, state_to_builtins
from events.heroscape import GameStarted, MarkersPlaced
from replay.errors import UnknownView
from replay.plugin import ALL, hide_secrets, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed",)}
        case MarkersPlaced(player=player):
            return {player: ("markers",)}
        case _:
            return {}


def redacted_event(event: Any, view: str) -> Any:
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
    data["markers"] = {p: (m if sees(view, p) else ("placed" if m is not None else None))
                       for p, m in data["markers"].items()}
    return data


__all__ = ["redacted_event", "secrets", "state_view"]
