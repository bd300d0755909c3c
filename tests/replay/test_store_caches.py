"""The DuckDB store's caches are bounded by entries, not by the games stored, and a dropped entry changes no
answer: the writer reloads a game's last seq from the games table."""

from __future__ import annotations

import pytest

import replay.store_duckdb as store_duckdb
from replay.errors import Conflict
from replay.store import NewEvent
from replay.store_duckdb import DuckDBEventStore


def event(n: int) -> NewEvent:
    return NewEvent(type="note", schema_version=1, payload=f'{{"n": {n}}}'.encode(), hash=f"h{n}")


def test_store_caches_stay_bounded_and_conflicts_are_still_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_duckdb, "_LAST_CACHE_LIMIT", 5)
    monkeypatch.setattr(store_duckdb, "_ROW_CACHE_LIMIT", 5)
    store = DuckDBEventStore(":memory:")
    try:
        for i in range(40):
            store.create_game(f"g{i}", "test", [], {}, [event(0)])
            store.append(f"g{i}", [event(1)], expected_seq=1)
            assert store.get_game(f"g{i}").last_seq == 2
        assert len(store._last) <= 6 and len(store._rows) <= 5
        for i in range(40):  # every game's last seq, reloaded where the cache let it go
            with pytest.raises(Conflict):
                store.append(f"g{i}", [event(2)], expected_seq=1)
            assert store.append(f"g{i}", [event(2)], expected_seq=2).last_seq == 3
            assert store.last_seq(f"g{i}") == 3
    finally:
        store.close()
