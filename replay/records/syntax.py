"""What every system's text record parser gives back, and the error it raises (docs/record-format.md).

The header tags and the result are the same for every system; the moves are each system's own syntax, parsed by
its ``RecordSyntax`` part (``replay.plugin``) into the system's typed actions. What every record shares is here,
for each system's part to use: tag values quoted and read (``quote``, ``unquote``), the header read
(``read_header``), the movetext cut into tokens with their lines, comments dropped (``movetext_tokens``), and the
people's tags every record starts with (``SEVEN_TAGS``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "Table")  # PGN's idea: the people's tags first, "?" when unknown
TAG_LINE = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


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


def quote(value: str) -> str:
    """A tag value: ``\\`` and ``\"`` escaped, and control characters (names stored before they were refused)
    as ``\\uXXXX``, so a tag is always one line."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in value)


def unquote(value: str) -> str:
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", lambda m: chr(int(m[1][1:], 16)) if len(m[1]) == 5 else m[1], value)


def tag_line(tag: str, value: str) -> str:
    return f'[{tag} "{quote(value)}"]'


def read_header(lines: list[str]) -> tuple[dict[str, str], dict[str, int], int]:
    """The tags of a record's header (``[Tag "value"]`` lines; blank and ``;`` lines skipped), the line of each,
    and the index of the first line after the header. RecordSyntaxError for a header line that cannot be read."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    n = 0
    while n < len(lines):
        stripped = lines[n].strip()
        if not stripped or stripped.startswith(";"):
            n += 1
            continue
        if not stripped.startswith("["):
            break
        m = TAG_LINE.match(stripped)
        if m is None:
            raise RecordSyntaxError(n + 1, "syntax", f'cannot read header line {stripped[:60]!r}: write [Tag "value"]')
        tags[m[1]] = unquote(m[2])
        tag_lines[m[1]] = n + 1
        n += 1
    return tags, tag_lines, n


def movetext_tokens(text: str, first_line: int) -> Iterator[tuple[int, str]]:
    """Movetext tokens with their line; ``{...}`` and ``; ...`` comments dropped; () and [] keep spaces."""
    line = first_line
    token: list[str] = []
    token_line = line
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{" and depth == 0:
            if token:
                yield token_line, "".join(token)
                token = []
            end = text.find("}", i)
            if end < 0:
                raise RecordSyntaxError(line, "syntax", "a comment '{' is never closed")
            line += text.count("\n", i, end)
            i = end + 1
            continue
        if ch == ";" and depth == 0:
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if ch.isspace() and depth == 0:
            if token:
                yield token_line, "".join(token)
                token = []
            if ch == "\n":
                line += 1
            i += 1
            continue
        if not token:
            token_line = line
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "\n":
            line += 1
        token.append(ch)
        i += 1
    if depth != 0:
        raise RecordSyntaxError(token_line, "syntax", f"unbalanced brackets in {''.join(token)[:40]!r}")
    if token:
        yield token_line, "".join(token)
