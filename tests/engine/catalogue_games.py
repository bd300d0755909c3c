"""What the catalogue tests of several systems share: a played game stored and stepped through as ``warlog replay``
does (issue 30)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.terminal import frame
from replay.archive.games import store_events
from replay.log.cursor import ReplayCursor, StateCache
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore


def replay_frame(system: str, events: Sequence[Any], seq: int) -> str:
    """The terminal frame ``warlog replay`` draws of ``events`` (stored as game ``g``) at ``seq``, as a spectator."""
    service = GameService(MemoryEventStore())
    store_events(service, system, events, "g")
    cursor = ReplayCursor(service, "g", cache=StateCache())
    cursor.seek(seq)
    return frame(cursor, "spectator")
