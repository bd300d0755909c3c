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

from engine.lords_of_war import CORE_DECKS, Concede, Draw, Place, Recall, Shoot
from engine.lords_of_war.actions import LordsOfWarAction
from events.lords_of_war import (
    CardDrawn,
    Conceded,
    GameStarted,
    HandDealt,
    HandRevealed,
    Placed,
    Recalled,
    Shot,
)


class ActionGroup(msgspec.Struct, frozen=True):
    """One action and the events it produced: ``events[start:stop]`` of the stream (0-based indices)."""

    action: LordsOfWarAction
    start: int
    stop: int


class StreamError(ValueError):
    """The stream cannot have been produced by actions (an event out of place)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


def army_setup(cards: Sequence[str], army_name: str) -> str | list[str]:
    """A faction name when the cards are that core deck in its order, else the explicit list (order matters:
    the sealed shuffle starts from it)."""
    if tuple(cards) == CORE_DECKS.get(army_name):
        return army_name
    return list(cards)


def setup_from_started(started: GameStarted) -> dict[str, Any]:
    """The setup (POST /games body) that ``start`` turns into this ``game_started``."""
    setup: dict[str, Any] = {
        "system": started.system,
        "players": [{"id": p.id, "name": p.name, "army": army_setup(p.cards, p.army_name)} for p in started.players],
        "variant": msgspec.to_builtins(started.variant),
        "seed": started.seed,
    }
    if started.position is not None:
        setup["position"] = msgspec.json.decode(msgspec.json.encode(started.position))
    return setup


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
    table = events[0].variant.mode == "table"
    groups: list[ActionGroup] = []
    i = opening_length(events)
    while i < len(events):
        event = events[i]
        start = i
        match event:
            case HandRevealed(player=player, cards=cards):
                placed = events[i + 1] if i + 1 < len(events) else None
                if not isinstance(placed, Placed) or placed.player != player:
                    raise StreamError(i, f"event {i + 1}: hand_revealed is not followed by that player's placement")
                i += 1
                action: LordsOfWarAction = _place(events, i, cards if table else None)
            case Placed():
                action = _place(events, i, None)
            case CardDrawn(player=player, card=card):
                action = Draw(player=player, card=card if table else None)
            case Recalled(player=player, square=square):
                action = Recall(player=player, square=square)
            case Conceded(player=player):
                action = Concede(player=player)
            case _:
                raise StreamError(i, f"event {i + 1}: {type(event).tag_name()} does not start an action")
        i += 1
        while i < len(events) and not isinstance(events[i], (HandRevealed, Placed, CardDrawn, Recalled, Conceded)):
            if isinstance(events[i], (GameStarted, HandDealt)):
                raise StreamError(i, f"event {i + 1}: {type(events[i]).tag_name()} after the opening")
            i += 1
        groups.append(ActionGroup(action=action, start=start, stop=i))
    return groups


def _place(events: Sequence[Any], i: int, reveal: tuple[str, ...] | None) -> Place:
    placed = events[i]
    shots = []
    j = i + 1
    while j < len(events) and isinstance(events[j], Shot):
        shots.append(Shoot(shooter=events[j].shooter_square, target=events[j].target_square))
        j += 1
    return Place(
        player=placed.player,
        card=placed.card,
        square=placed.square,
        shots=tuple(shots),
        reveal=tuple(reveal) if reveal is not None else None,
    )
