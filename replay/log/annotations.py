"""Annotations (issue 32 item 6): comments the scorekeeper or the tournament's organiser adds to a game's steps.

They are kept apart from the game's events (the store's ``annotations`` table, ``AnnotationStoring``): adding one
never changes the log, its hash chain, its content hash or what ``warlog verify`` finds. Append-only: an annotation
is never changed nor deleted; a correction is a further annotation. ``add`` checks what the store does not: the step
is one of the game's (an event's seq, 1 to the game's last), the text is one line of 1 to ``MAX_TEXT`` characters,
the author's name one line of at most ``MAX_AUTHOR``, and a game holds at most ``MAX_PER_GAME`` of them.

The records carry them as comments (``comment``; replay.archive.annotations puts each after its step's move).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from replay.store.base import Annotation, AnnotationStoring

MAX_TEXT = 1000  # characters of one annotation
MAX_AUTHOR = 64  # characters of the author's name
MAX_PER_GAME = 500  # annotations one game holds
ROLES = ("scorekeeper", "organiser")


class AnnotationRefused(ValueError):
    """An annotation that cannot be added: ``code`` (invalid_step, invalid_text, invalid_author, too_many_annotations,
    unsupported) and a sentence saying why. Nothing is stored."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _one_line(value: str, what: str, limit: int, code: str) -> str:
    value = value.strip()
    if not value:
        raise AnnotationRefused(code, f"the {what} is empty: write 1 to {limit:,} characters")
    if len(value) > limit:
        raise AnnotationRefused(code, f"the {what} has {len(value):,} characters; at most {limit:,} are kept")
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in value):
        raise AnnotationRefused(code, f"the {what} is one line of text: no line breaks, tabs or control characters")
    return value


def storing(store: Any) -> AnnotationStoring:
    """The store's annotations capability; ``unsupported`` when it keeps none."""
    if not isinstance(store, AnnotationStoring):
        raise AnnotationRefused("unsupported", "this store keeps no annotations")
    return store


def add(store: Any, game_id: str, step: int, text: str, role: str, author: str | None = None) -> Annotation:
    """Check and append an annotation to game ``game_id`` (GameNotFound if there is none); AnnotationRefused when
    the step, the text or the author's name breaks a rule above, or the game holds ``MAX_PER_GAME`` already."""
    keeper = storing(store)
    if role not in ROLES:
        raise ValueError(f"an annotation's role is one of {', '.join(ROLES)}, not {role!r}")
    last = store.get_game(game_id).last_seq
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= last:
        raise AnnotationRefused("invalid_step", f"step {step!r} is not one of game {game_id!r}'s: its steps are its "
                                f"events, 1 to {last}")
    text = _one_line(text, "annotation", MAX_TEXT, "invalid_text")
    name = _one_line(author, "author's name", MAX_AUTHOR, "invalid_author") if author is not None else role
    if len(keeper.annotations(game_id)) >= MAX_PER_GAME:
        raise AnnotationRefused("too_many_annotations", f"game {game_id!r} holds {MAX_PER_GAME} annotations, the "
                                "most one game keeps")
    return keeper.add_annotation(game_id, step, text, role, name)


def of_game(store: Any, game_id: str) -> list[Annotation]:
    """The game's annotations in the order they were added (none for a store that keeps none)."""
    return store.annotations(game_id) if isinstance(store, AnnotationStoring) else []


def comment(note: Annotation) -> str:
    """The annotation as a record's comment text (without the braces): ``Note on step 12 by Ada (scorekeeper),
    2026-11-28 07:01 UTC: text``; braces in the text become parentheses, as every comment's do."""
    by = note.author if note.author == note.role else f"{note.author} ({note.role})"
    when = note.created_at[:16].replace("T", " ") + " UTC"
    text = note.text.replace("}", ")").replace("{", "(")
    return f"Note on step {note.step} by {by.replace('}', ')').replace('{', '(')}, {when}: {text}"
