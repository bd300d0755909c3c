"""Rule errors: every illegal action is refused with a stable code, the rule it breaks and a player's message."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules forbid.

    ``code`` is stable and machine-readable (``"contact"``, ``"occupied"``, ``"not_your_turn"``...);
    ``rule`` cites the rulebook (a ruling ``"R7"`` or a section ``"§5.1"``); ``message`` speaks to a player:
    "Orc Ravager at D4 does not point at any adjacent enemy unit (contact rule, §5.1)".
    """

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError(code={self.code!r}, rule={self.rule!r}, message={self.message!r})"


class SetupError(RuleError):
    """A game that cannot start as asked: an invalid army, variant or starting position."""


class StreamError(ValueError):
    """A recorded event stream that no sequence of actions can have produced (an event out of place), met while
    recovering a game's actions from its events (``GameSystem.recorded_actions``). ``index`` is 0-based."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message
