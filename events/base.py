"""The event base class.

Every event is a frozen msgspec Struct tagged by the field ``type``. A tag, once published, never changes:
old logs must decode forever. When an event's shape changes, bump its ``version`` class variable and register an
upcaster for the old version in the system's codec (see ``events.codec``).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event. Subclasses set ``tag="..."`` (past tense, never changed) and may bump ``version``."""

    version: ClassVar[int] = 1

    @classmethod
    def tag_name(cls) -> str:
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str), f"{cls.__name__} has no string tag"
        return tag


ADJUDICATION_REASONS = ("time", "agreement", "stalled", "judge")  # why a game was adjudicated (docs/contract.md)
# A result corrected once the game is over (issue 31): a tournament's organiser, with a reason (docs/contract.md,
# "A corrected result"). Never an ``adjudicate`` a client sends: only a tournament's correction writes it.
CORRECTION = "correction"
RESULT_REASONS = (*ADJUDICATION_REASONS, CORRECTION)  # an ``Adjudication``'s reason: one of these


class Adjudication(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """How a game was ended off the board by the scorekeeper's ``adjudicate`` (docs/contract.md): carried by every
    system's ``game_ended`` (reason ``adjudicated``) in its field ``adjudication``.

    ``reason``: one of ``ADJUDICATION_REASONS``, or ``CORRECTION`` for a result corrected after the game ended (its
    ``game_ended`` follows the one it corrects; the last one counts, the stream keeps both). ``placings``: every
    seat once, in finishing order, tied seats (and a team's seats) together; one group is a draw. ``note``: the
    scorekeeper's words, if any. ``explanation``: why the system's time rule gives these placings, when it decided
    them (``reason`` time without a named result); None when the scorekeeper named the result. ``by``: who
    corrected the result (``organiser``), only on a correction, whose ``note`` is the reason it gives."""

    reason: str
    placings: tuple[tuple[str, ...], ...]
    note: str | None = None
    explanation: str | None = None
    by: str | None = None

    @property
    def winners(self) -> tuple[str, ...]:
        """The seats placed first; none for a draw (every seat in one group)."""
        return self.placings[0] if len(self.placings) > 1 else ()

    @property
    def winner(self) -> str | None:
        """The one winning seat; None for a draw (or several winners: a team)."""
        return self.placings[0][0] if len(self.placings) > 1 and len(self.placings[0]) == 1 else None

    @property
    def is_correction(self) -> bool:
        return self.reason == CORRECTION

    @property
    def named(self) -> bool:
        """The scorekeeper named the result (not the system's time rule)."""
        return self.explanation is None
