"""Views of one log: ``all``, ``spectator`` and each player's (``p1``, ``p2``).

A view sees exactly what that seat may see at that moment: its own hand, the other hands only by size, never the
deck order or anything that reveals it (the seed, event hashes), a hand revealed for a forced placement yes.
Redaction applies to states and to the event stream alike. Who may ask for which view is the API's business.
The rules of what is hidden live per system in ``replay/<system>/views.py``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from events import Recorded

VIEWS: tuple[str, ...] = ("all", "spectator", "p1", "p2")


def system_views(system_name: str) -> ModuleType:
    """The module holding ``state_view`` / ``event_view`` / ``redacted_event`` for a game system."""
    if system_name == "lords-of-war":
        from replay.lords_of_war import views

        return views
    raise KeyError(f"no views for game system {system_name!r}")


def state_view(system_name: str, state: Any, view: str) -> dict[str, Any]:
    """The state as contract JSON for ``view`` (hidden cards absent)."""
    return system_views(system_name).state_view(state, view)


def event_view(system_name: str, recorded: Recorded[Any], view: str) -> dict[str, Any] | None:
    """The event as JSON (``seq``, ``type``, ``recorded_at``, ``hash``, payload) redacted for ``view``;
    None when the view may not see the event at all."""
    return system_views(system_name).event_view(recorded, view)


def events_view(system_name: str, recorded: list[Recorded[Any]], view: str) -> list[dict[str, Any]]:
    """Every event ``view`` may see, redacted, in order."""
    module = system_views(system_name)
    return [e for e in (module.event_view(r, view) for r in recorded) if e is not None]
