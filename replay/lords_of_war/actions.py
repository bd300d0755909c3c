"""From a stored Lords of War stream back to the setup and the actions that produced it.

Import (JSONL) and ``warlog verify`` re-decide stored games through today's rules; for that they need what the
players did, not only what happened. The opening (``game_started`` and the ``hand_dealt`` events) comes from the
setup; after it, an action's events start at ``hand_revealed`` or ``placed`` (a placement; its ``shot`` events
give the shots), ``card_drawn`` (draw), ``recalled`` (recall) or ``conceded`` (concede). Every other event
(elimination, berserker moves, extra turn, skipped reinforcement, game end) is a consequence of the action
before it (docs/events.md, "What each action produces").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.lords_of_war.actions import LordsOfWarAction
from engine.lords_of_war.armies import army_setup, setup_from_started
from engine.lords_of_war.verify import StreamError, recorded_actions, redecide

__all__ = [
    "ActionGroup", "StreamError", "actions_from_events", "army_setup", "opening_length", "redecide", "setup_from_started",
]
from events.lords_of_war import GameStarted, HandDealt


class ActionGroup(msgspec.Struct, frozen=True):
    """One action and the events it produced: ``events[start:stop]`` of the stream (0-based indices)."""

    action: LordsOfWarAction
    start: int
    stop: int


def opening_length(events: Sequence[Any]) -> int:
    """How many events the setup produced: ``game_started`` and the ``hand_dealt`` events after it."""
    n = 1 if events and isinstance(events[0], GameStarted) else 0
    while n < len(events) and isinstance(events[n], HandDealt):
        n += 1
    return n


def actions_from_events(events: Sequence[Any]) -> list[ActionGroup]:
    """The actions after the opening, each with the slice of events it produced. Raises StreamError."""
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a Lords of War stream starts with game_started")
    return [ActionGroup(action=action, start=start, stop=stop) for start, stop, action in recorded_actions(events)]
