"""A game's annotations (replay.log.annotations) in its exports: as ``{...}`` comments in the text record, each
after the move whose events hold its step, and as lines of their own in JSONL, each after its step's event.

The record's parsers drop comments (``notation.movetext_tokens``) and the JSONL reader skips annotation lines
(``games.read_jsonl``), so an annotated export imports as the same game. Import does not restore annotations: an
annotation is a statement of a token holder of the server that kept it (its role, its clock), which a file cannot
prove; the comments stay in the file for people.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.adjudication import Adjudicate
from replay.archive.notation import RESULT_TOKENS
from replay.log.annotations import comment
from replay.store.base import Annotation

ANNOTATION_KEY = "annotation"  # a JSONL line {"annotation": {...}} (no "type": it is no event)
_TURN = re.compile(r"\d+\.")
_SEAT = re.compile(r"p\d+")


def _movetext_start(text: str) -> int:
    """The offset of the first character after the header (its tag lines and the blank line after them)."""
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and not stripped.startswith("[") and not stripped.startswith(";"):
            return offset
        offset += len(line)
    return offset


def _tokens(text: str, start: int) -> list[tuple[int, int, str]]:
    """(start, end, token) of each movetext token from ``start``: comments skipped, ``()``/``[]`` keep spaces
    (as ``notation.movetext_tokens`` reads them)."""
    out = []
    i, depth, begin = start, 0, -1
    while i < len(text):
        ch = text[i]
        if depth == 0 and ch in "{;":
            if begin >= 0:
                out.append((begin, i, text[begin:i]))
                begin = -1
            end = text.find("}" if ch == "{" else "\n", i)
            i = len(text) if end < 0 else end + 1
            continue
        if depth == 0 and ch.isspace():
            if begin >= 0:
                out.append((begin, i, text[begin:i]))
                begin = -1
            i += 1
            continue
        if begin < 0:
            begin = i
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        i += 1
    if begin >= 0:
        out.append((begin, len(text), text[begin:]))
    return out


def annotate_record(text: str, system: Any, events: Sequence[Any], notes: Sequence[Annotation]) -> str:
    """``text`` (the record of ``events``, a stream of ``system``) with each of ``notes`` as a comment after the move
    whose events hold its step; a step before the first move's is commented before the moves, one after the last
    move's (an adjudication's) before the result. Unchanged without notes."""
    if not notes:
        return text
    moves = [step for step in system.recorded_actions(events) if not isinstance(step.action, Adjudicate)]
    body = _movetext_start(text)
    tokens = [t for t in _tokens(text, body) if not _TURN.fullmatch(t[2]) and not _SEAT.fullmatch(t[2])]
    result = next((t for t in reversed(tokens) if t[2] in RESULT_TOKENS), None)
    written = [t for t in tokens if t[2] not in RESULT_TOKENS]
    before: list[str] = []
    after: dict[int, list[str]] = {}  # the offset of a move token's end -> the comments after it
    last: list[str] = []
    for note in sorted(notes, key=lambda n: (n.step, n.n)):
        said = "{" + comment(note) + "}"
        index = next((i for i, m in enumerate(moves) if m.start < note.step <= m.stop), None)
        if len(written) != len(moves):  # a record written otherwise than one token a move: every note at the end
            last.append(said)
        elif index is None:
            (before if not moves or note.step <= moves[0].start else last).append(said)
        else:
            after.setdefault(written[index][1], []).append(said)
    out = []
    cut = 0
    for offset in sorted(after):
        out += [text[cut:offset], " ", " ".join(after[offset])]
        cut = offset
    end = result[0] if result is not None else len(text.rstrip("\n"))
    if last:
        out += [text[cut:end], "\n".join(last), "\n"]
        cut = end
    out.append(text[cut:])
    annotated = "".join(out)
    if before:
        annotated = annotated[:body] + "\n".join(before) + "\n" + annotated[body:]
    return annotated


def annotation_line(note: Annotation) -> dict[str, Any]:
    """A JSONL line of an annotation: ``{"annotation": {"n", "step", "text", "role", "author", "created_at"}}``."""
    return {ANNOTATION_KEY: {"n": note.n, "step": note.step, "text": note.text, "role": note.role,
                             "author": note.author, "created_at": note.created_at}}


def is_annotation_line(data: dict[str, Any]) -> bool:
    """A JSONL line that holds an annotation, not an event."""
    return ANNOTATION_KEY in data and "type" not in data
