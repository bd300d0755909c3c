"""Content hashes (replay/log/contents.py): the SQL hash of stored games (DuckDB, PostgreSQL) equals the Python hash
of their events, rows follow a game that grows, and the in-memory store's scan agrees."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from engine.lords_of_war import SYSTEM
from engine.lords_of_war.bots import play_bot_game
from replay.log.chain import encode_chain
from replay.log.contents import duplicates_of, events_hash
from replay.store.base import ContentFinding, EventStore
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore
from tests.pg import fresh_schema


@contextmanager
def opened(backend: str) -> Iterator[EventStore]:
    if backend == "postgres":
        from replay.store.postgres_store import PostgresEventStore

        with fresh_schema() as url:
            store: EventStore = PostgresEventStore(url, listen=False)
            assert isinstance(store, ContentFinding)  # found in the database, not by reading every game
            try:
                yield store
            finally:
                store.close()
        return
    store = DuckDBEventStore(":memory:") if backend == "duckdb" else MemoryEventStore()
    try:
        yield store
    finally:
        store.close()


@pytest.mark.parametrize("backend", ["duckdb", "memory", "postgres"])
def test_contents_duplicates_follow_a_growing_game(backend: str) -> None:
    events = play_bot_game(3)
    with opened(backend) as store:
        encoded = encode_chain(SYSTEM, "g", events)
        store.create_game("g", "lords-of-war", ["a", "b"], {}, encoded[:10])
        store.create_game("other", "lords-of-war", ["a", "b"], {}, encoded[:5])
        store.create_game("empty", "lords-of-war", ["a", "b"], {}, [])
        assert duplicates_of(store, events_hash(SYSTEM, events[:10])) == ["g"]
        assert duplicates_of(store, events_hash(SYSTEM, events)) == []
        assert duplicates_of(store, events_hash(SYSTEM, [])) == ["empty"]
        store.append("g", encoded[10:])
        assert duplicates_of(store, events_hash(SYSTEM, events[:10])) == []  # its row was refreshed
        assert duplicates_of(store, events_hash(SYSTEM, events)) == ["g"]
        again = encode_chain(SYSTEM, "copy", events)  # other id, other chain
        store.create_game("copy", "lords-of-war", [], {}, again)
        assert duplicates_of(store, events_hash(SYSTEM, events)) == ["copy", "g"]
