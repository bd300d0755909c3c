"""What every system's text record parser gives back, and the error it raises (docs/record-format.md).

The header tags and the result are the same for every system; the moves are each system's own syntax, parsed by
its ``RecordSyntax`` part (``replay.plugin``) into the system's typed actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RecordSyntaxError(ValueError):
    """A record that cannot be read: ``line`` (1-based), ``code``, ``rule`` (None for syntax), ``message``."""

    def __init__(self, line: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.code = code
        self.rule = rule
        self.message = message


@dataclass
class Move:
    """One move of a record: the line it is on and the typed action it says."""

    line: int
    action: Any


@dataclass
class ParsedRecord:
    tags: dict[str, str]
    tag_lines: dict[str, int]
    moves: list[Move] = field(default_factory=list)
    result: str | None = None
    result_line: int = 0
