"""Whole games in and out: the text game record (docs/record-format.md) and JSONL, export and import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.system import GameSystem
from replay.games import GameService, chain_hash, genesis_hash
from replay.store import NewEvent


def encode_chain(system: GameSystem, game_id: str, events: Sequence[Any], previous: str | None = None) -> list[NewEvent]:
    """Encode typed events for the store, each hash chained to the one before (genesis: the game id)."""
    previous = genesis_hash(game_id) if previous is None else previous
    out = []
    for event in events:
        tag = type(event).tag_name()
        version = system.codec.version_of(tag)
        payload = system.codec.encode_json(event)
        previous = chain_hash(previous, tag, version, payload)
        out.append(NewEvent(type=tag, schema_version=version, payload=payload, hash=previous))
    return out


def store_events(
    service: GameService,
    system_name: str,
    events: Sequence[Any],
    game_id: str,
    metadata: dict[str, Any] | None = None,
    players: list[str] | None = None,
) -> str:
    """The fast path for events already decided by the rules (bot games for benchmarks and tests): one atomic
    ``create_game`` with the whole chained stream. Imports of outside records go through ``import_*`` instead."""
    system = service._system_lookup(system_name)  # noqa: SLF001 - the service's registry
    service.store.create_game(
        game_id, system.name, players or ["p1", "p2"], dict(metadata or {}), encode_chain(system, game_id, events)
    )
    return game_id
