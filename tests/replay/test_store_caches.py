"""The DuckDB store's caches are bounded by entries, not by the games stored, and a dropped entry changes no
answer: the writer reloads a game's last seq from the games table."""

from __future__ import annotations

import pytest

import replay.store.duckdb_store as store_duckdb
from replay.errors import Conflict
from replay.store.base import NewEvent
from replay.store.duckdb_store import DuckDBEventStore


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


def transaction_memory_mib(store: DuckDBEventStore) -> float:
    conn = store.reader()
    try:
        rows = conn.execute("SELECT memory_usage_bytes FROM duckdb_memory() WHERE tag = 'TRANSACTION'").fetchall()
    finally:
        conn.close()
    return sum(r[0] for r in rows) / 2**20


def test_store_reads_leave_no_transaction_open_to_pin_later_commits(tmp_path) -> None:
    store = DuckDBEventStore(tmp_path / "t.duckdb")
    try:
        store.create_game("g", "test", [], {}, [event(0)])
        store.create_game("h", "test", [], {}, [event(0)])
        store.put_snapshot("g", 1, b"state")
        store._rows.clear()
        store.get_game("g")  # a read through this thread's cursor, as a request handler's cache miss does
        store.find_idempotent("g", "no-such-key")
        store.get_snapshot("g", 1)
        for n in range(1, 201):
            store.append("h", [event(n)], expected_seq=n)
        # an open read transaction would keep ~256 KiB of undo data per commit: 50 MiB here
        assert transaction_memory_mib(store) < 8
    finally:
        store.close()
