"""Lords of War (Black Box Games, 2012): the rules engine.

Public interface: ``initial_state``, ``evolve``, ``fold``, ``decide``, ``legal_actions``, ``start``,
``parse_action``, ``state_to_builtins``, the ``State`` struct, the action union and ``SYSTEM`` (the
``engine.system.GameSystem`` object registered in ``engine.systems``). Rules: the project's digest
(rulings R1–R15); events: ``events.lords_of_war`` and docs/events.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Recall, Shoot, parse_action
from engine.lords_of_war.armies import RULES_VERSION, SYSTEM_NAME, army_cards, start
from engine.lords_of_war.cards import CARDS, CORE_DECKS, FACTIONS, Card
from engine.lords_of_war.rules import decide, legal_actions
from engine.lords_of_war.state import State, evolve, fold, initial_state, state_to_builtins
from engine.lords_of_war.verify import recorded_actions, verify
from events.lords_of_war import CODEC, LordsOfWarEvent


class LordsOfWarSystem:
    """The ``GameSystem`` for Lords of War."""

    name = SYSTEM_NAME
    rules_version = RULES_VERSION
    codec = CODEC
    action_type = LordsOfWarAction
    event_type = LordsOfWarEvent

    def start(self, setup: dict[str, Any]) -> tuple[Any, ...]:
        return start(setup)

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, action: Any) -> tuple[Any, ...]:
        return decide(state, parse_action(action) if isinstance(action, dict) else action)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[Any]) -> State:
        return fold(events)

    def state_to_builtins(self, state: State) -> dict[str, Any]:
        return state_to_builtins(state)

    def parse_action(self, data: dict[str, Any]) -> Any:
        return parse_action(data)

    def legal_actions(self, state: State) -> Sequence[Any]:
        return legal_actions(state)

    # beyond the GameSystem protocol -------------------------------------------------------------------
    def verify(self, events: Sequence[Any]) -> str | None:
        """Re-decide a recorded game with today's rules: None, or the first divergence (``warlog verify``)."""
        return verify(events)

    def recorded_actions(self, events: Sequence[Any]) -> list[Any]:
        """The actions of a recorded game, recovered from its events."""
        return [action for _, _, action in recorded_actions(events)]


SYSTEM = LordsOfWarSystem()

from engine.lords_of_war.bots import GreedyBot, RandomBot, play_bot_game  # noqa: E402  (bots use the rules above)

__all__ = [
    "CARDS",
    "CODEC",
    "CORE_DECKS",
    "Card",
    "Concede",
    "Draw",
    "FACTIONS",
    "GreedyBot",
    "RandomBot",
    "LordsOfWarAction",
    "LordsOfWarEvent",
    "LordsOfWarSystem",
    "Place",
    "Recall",
    "RULES_VERSION",
    "SYSTEM",
    "SYSTEM_NAME",
    "Shoot",
    "State",
    "army_cards",
    "decide",
    "evolve",
    "fold",
    "initial_state",
    "legal_actions",
    "parse_action",
    "play_bot_game",
    "recorded_actions",
    "verify",
    "start",
    "state_to_builtins",
]
