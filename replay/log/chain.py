"""The hash chain: how a game's events are encoded for the store and chained to each other, in one place.

Each event is stored as its tag, its schema version and its JSON payload, with a hash over the previous event's
hash and those bytes (docs/record-format.md). The game service, record import, bulk import, verify and the
benchmarks all encode through ``encode_chain``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import Any

from engine.system import GameSystem
from replay.store.base import NewEvent

GENESIS = "warlog-chain-v1"

_BLAKE2B_128 = hashlib.blake2b(digest_size=16)  # copied for each event: cheaper than a new object (bulk import)


def chain_hash(previous: str, event_type: str, schema_version: int, payload: bytes) -> str:
    """The integrity hash of one event: BLAKE2b-128 over the previous event's hash and this event's bytes,
    ``previous NUL type NUL version NUL payload``.

    The first event of a game chains to ``genesis_hash(game_id)``. Because a state is a function of the events
    before it, each hash commits to the whole history up to and including its event (docs/record-format.md).
    """
    digest = _BLAKE2B_128.copy()
    digest.update(f"{previous}\0{event_type}\0{schema_version}\0".encode())
    digest.update(payload)
    return digest.hexdigest()


def genesis_hash(game_id: str) -> str:
    """What a game's first event chains to: BLAKE2b-128 of ``GENESIS:game_id``."""
    return hashlib.blake2b(f"{GENESIS}:{game_id}".encode(), digest_size=16).hexdigest()


def chained(system: GameSystem, events: Sequence[Any], previous: str) -> Iterator[tuple[str, int, bytes, str]]:
    """``(type, schema_version, payload, hash)`` of each event, chained on from ``previous``."""
    codec = system.codec
    for event in events:
        tag = type(event).tag_name()
        version = codec.version_of(tag)
        payload = codec.encode_json(event)
        previous = chain_hash(previous, tag, version, payload)
        yield tag, version, payload, previous


def encode_chain(
    system: GameSystem, game_id: str, events: Sequence[Any], previous: str | None = None
) -> list[NewEvent]:
    """Encode typed events for the store, each chained to the one before (``previous``, or the game's genesis)."""
    start = genesis_hash(game_id) if previous is None else previous
    return [NewEvent(type=t, schema_version=v, payload=p, hash=h) for t, v, p, h in chained(system, events, start)]
