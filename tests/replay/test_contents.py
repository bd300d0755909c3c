"""Content hashes (replay/log/contents.py): the SQL hash of stored games equals the Python hash of their events, rows
follow a game that grows, and the in-memory store's scan agrees."""

from __future__ import annotations

from engine.lords_of_war import SYSTEM
from engine.lords_of_war.bots import play_bot_game
from replay.log.chain import encode_chain
from replay.log.contents import duplicates_of, events_hash
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore


def test_contents_duplicates_follow_a_growing_game_in_duckdb_and_memory() -> None:
    events = play_bot_game(3)
    for store in (DuckDBEventStore(":memory:"), MemoryEventStore()):
        try:
            encoded = encode_chain(SYSTEM, "g", events)
            store.create_game("g", "lords-of-war", ["a", "b"], {}, encoded[:10])
            store.create_game("other", "lords-of-war", ["a", "b"], {}, encoded[:5])
            assert duplicates_of(store, events_hash(SYSTEM, events[:10])) == ["g"]
            assert duplicates_of(store, events_hash(SYSTEM, events)) == []
            store.append("g", encoded[10:])
            assert duplicates_of(store, events_hash(SYSTEM, events[:10])) == []  # its row was refreshed
            assert duplicates_of(store, events_hash(SYSTEM, events)) == ["g"]
            again = encode_chain(SYSTEM, "copy", events)  # other id, other chain
            store.create_game("copy", "lords-of-war", [], {}, again)
            assert duplicates_of(store, events_hash(SYSTEM, events)) == ["copy", "g"]
        finally:
            store.close()
