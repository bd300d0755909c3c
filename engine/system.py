"""What every game system offers the rest of warlog (replay, API, CLI): one object per system.

``replay`` and ``api`` never import a system's internals; they look a system up by name in ``engine.systems``
and use only this protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from events import Codec


class GameSystem(Protocol):
    """A game system. Conventions every system keeps: the first event of a game is ``game_started`` and the
    last is ``game_ended``; ``state_to_builtins`` has ``seq``, ``phase`` (``"over"`` at the end), ``winner``
    and ``end_reason``."""

    name: str  # "lords-of-war"
    rules_version: str  # bumps whenever decide() changes behaviour
    codec: Codec[Any]  # the system's event union
    action_type: Any  # the tagged union of actions (msgspec Structs)

    def start(self, setup: dict[str, Any]) -> tuple[Any, ...]:
        """Validate a game setup (the body of POST /games minus tokens) and return the opening events
        (``game_started`` and whatever the setup itself causes, e.g. dealing). Raises SetupError."""

    def initial_state(self) -> Any:
        """The state before any event."""

    def decide(self, state: Any, action: Any) -> tuple[Any, ...]:
        """Check an action against the rules; return every event it causes. Raises RuleError."""

    def evolve(self, state: Any, event: Any) -> Any:
        """Apply one event; trusts its input."""

    def fold(self, events: Iterable[Any]) -> Any:
        """``evolve`` over ``initial_state()``."""

    def state_to_builtins(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON data in the contract's shape (``view=all``)."""

    def parse_action(self, data: dict[str, Any]) -> Any:
        """Plain data -> typed action. Raises RuleError(code="malformed") on bad shape."""

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Every legal action for the side to act (used by the bots and by clients)."""
