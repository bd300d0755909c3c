"""The command line's parser and its numeric options (standard library only: used while the parser is built).

Every numeric option is a ``Number``: an argparse ``type`` that knows its range, so a value out of it (``warlog
demo --games -1``) is a usage error, one line on stderr and exit status 2, before anything runs or is opened. The
parser (``Parser``) prints every usage error as one line, ``warlog COMMAND: ...``, like the commands' own errors
(docs/cli.md). ``tests/api/test_cli_numbers.py`` walks the parser and tries a value out of range on each.

The ranges shared with the HTTP API are named here once (api/models.py and the routes use them too).
"""

from __future__ import annotations

import argparse
import math
from typing import Any, NoReturn

MAX_ROUNDS = 64  # a tournament's rounds (POST /tournaments, warlog tournament create --rounds)
MAX_TABLES = 10_000  # a round's table numbers (a forfeit's TABLE)
MAX_SCORE = 1000  # a seat's score in a forfeit result (--scores)
MAX_SEED = 2**63 - 1  # a game's seed: a signed 64-bit integer (every system's setup)
MAX_ROWS = 1_000_000_000  # "every row" is 0; a bound far past any table, so a typo is not a 20-digit LIMIT


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line, ``warlog COMMAND: MESSAGE (warlog COMMAND --help)``,
    exit status 2: the usage itself is one ``--help`` away."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {' '.join(message.split())} (see {self.prog} --help)\n")


def _grouped(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


class Number:
    """An argparse ``type``: a whole number (``kind=int``) or a number of seconds and the like (``kind=float``,
    finite) from ``low`` to ``high`` (None: no bound that side). ``zero`` names what 0 means where it is special
    (``"every row"``), for the message."""

    def __init__(self, low: float | None, high: float | None = None, *, kind: type = int, zero: str = "") -> None:
        self.low = low
        self.high = high
        self.kind = kind
        self.zero = zero
        self.__name__ = "whole number" if kind is int else "number"  # argparse names the type with it

    def range(self) -> str:
        """The values it takes, in words: ``from 1 to 65,535``, ``0 (every row) or more``."""
        low = f"{_grouped(self.low)}{f' ({self.zero})' if self.zero and self.low == 0 else ''}" \
            if self.low is not None else None
        if low is not None and self.high is not None:
            return f"from {low} to {_grouped(self.high)}"
        if low is not None:
            return f"{low} or more"
        return f"at most {_grouped(self.high)}" if self.high is not None else "any"

    def __call__(self, text: str) -> Any:
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {self.__name__} (give one {self.range()})") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number (give one {self.range()})")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise argparse.ArgumentTypeError(f"{text} is out of range: give a {self.__name__} {self.range()}")
        return value

    def __repr__(self) -> str:
        return f"Number({self.low!r}, {self.high!r}, kind={self.kind.__name__})"


def whole(low: int | None, high: int | None = None, zero: str = "") -> Number:
    """A whole number from ``low`` to ``high``."""
    return Number(low, high, kind=int, zero=zero)


def seconds(low: float, high: float, zero: str = "") -> Number:
    """A (decimal) number of seconds from ``low`` to ``high``."""
    return Number(low, high, kind=float, zero=zero)
