"""Errors of the record. Plain exceptions: only `api/` maps them to HTTP statuses."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the event store raises on purpose."""


class GameNotFound(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} not found")
        self.game_id = game_id


class CatalogueNotFound(StoreError):
    def __init__(self, catalogue_id: str) -> None:
        super().__init__(f"catalogue {catalogue_id!r} not found")
        self.catalogue_id = catalogue_id


class CatalogueRefused(Exception):
    """A game naming a catalogue it cannot play (issue 30): ``code`` ``unknown_catalogue`` (no catalogue of that id
    is stored, or it is another system's) or ``catalogue_not_supported`` (the system plays its built-in data only)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GameExists(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} already exists")
        self.game_id = game_id


class Conflict(StoreError):
    """The caller's `expected_seq` is stale: someone else appended first."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int) -> None:
        super().__init__(f"game {game_id!r}: expected last seq {expected_seq}, but it is {actual_seq}")
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class CorruptRecord(StoreError):
    """A stored event cannot be trusted: bad payload, or a hole in the stream."""

    def __init__(self, game_id: str, seq: int, reason: str) -> None:
        super().__init__(f"game {game_id!r}, seq {seq}: corrupt record ({reason})")
        self.game_id = game_id
        self.seq = seq
        self.reason = reason


class UnknownView(ValueError):
    """A view that no seat of the game has (views are ``all``, ``spectator`` and the game's seats)."""


class StoreUnavailable(StoreError):
    """The database cannot be reached (down, restarting, no free connection in time). Nothing was changed by the
    call that raised it, except possibly an append whose answer was lost: retry it with its idempotency key."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the event store is unavailable: {reason}")
        self.reason = reason


class StoreTimeout(StoreUnavailable):
    """A statement ran past the store's statement timeout and was cancelled (a stalled database or a lock held too
    long); its transaction was rolled back."""


class StoreBusy(StoreUnavailable):
    """The database rolled the call's transaction back to settle a deadlock or a serialization conflict with
    another process's; nothing was changed: retry."""
