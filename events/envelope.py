"""The recorded envelope: an event as it sits in a game's log."""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

E = TypeVar("E")


class Recorded(msgspec.Struct, Generic[E], frozen=True, kw_only=True):
    """One stored event with its position in the game's stream.

    ``recorded_at`` is an ISO-8601 UTC timestamp set by the store (the engine never reads it);
    ``schema_version`` is the version of the event's shape when it was written; ``hash`` chains the
    event to the state before it (see docs/record-format.md); it is empty where a store does not chain.
    """

    game_id: str
    seq: int
    recorded_at: str
    schema_version: int
    event: E
    hash: str = ""
