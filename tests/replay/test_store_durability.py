"""What the DuckDB file and PostgreSQL stores keep: acknowledged appends survive kill -9 of the writing process,
and everything survives a reopen (PostgreSQL: in a schema of its own, skipped without a server, tests/pg.py)."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import msgspec
import pytest

from replay.store.base import NewEvent
from replay.store.open import open_store
from replay.store.sql import migrations

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def read_acks(process: subprocess.Popen[str], wanted: int, timeout: float) -> list[tuple[str, int]]:
    acks: list[tuple[str, int]] = []
    selector = selectors.DefaultSelector()
    assert process.stdout is not None
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while len(acks) < wanted and time.monotonic() < deadline:
        if selector.select(timeout=0.5):
            line = process.stdout.readline()
            if not line:
                break
            game_id, seq = line.split()
            acks.append((game_id, int(seq)))
    return acks


@pytest.fixture(params=["duckdb", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A DuckDB file path or a PostgreSQL URL (a fresh schema), for stores opened by ``open_store``."""
    if request.param == "duckdb":
        yield str(tmp_path / "killed.duckdb")
        return
    from tests.pg import fresh_schema

    with fresh_schema() as url:
        yield url


def test_store_acknowledged_appends_survive_kill_9(database: str) -> None:
    path = database
    games, batch = 4, 3
    process = subprocess.Popen(
        [sys.executable, str(HERE / "kill_target.py"), str(path), str(games), str(batch)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        acks = read_acks(process, wanted=60, timeout=30)
        process.send_signal(signal.SIGKILL)  # right after an ack, while the other threads are mid-append
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.stderr is not None
    assert len(acks) == 60, process.stderr.read()
    assert process.returncode == -signal.SIGKILL

    store = open_store(path)
    try:
        acked = {f"g{n}": 0 for n in range(games)}
        for game_id, seq in acks:
            acked[game_id] = max(acked[game_id], seq)
        for game_id, last_acked in acked.items():
            last = store.last_seq(game_id)
            assert last >= last_acked, f"{game_id}: acked {last_acked}, only {last} survived"
            assert last % batch == 0, f"{game_id}: a batch was half stored (last seq {last})"
            stored = store.read(game_id)  # raises CorruptRecord on any hole
            assert [msgspec.json.decode(e.payload)["seq"] for e in stored] == list(range(1, last + 1))
    finally:
        store.close()


def test_store_reopened_keeps_events_metadata_keys_and_snapshots(database: str) -> None:
    path = database
    store = open_store(path)
    store.create_game("g1", "l5r", ["p1", "p2"], {"names": {"p1": "Ann"}}, [NewEvent("duel", 1, b"{}")], "cup")
    first = store.append("g1", [NewEvent("strike", 2, b'{"n":1}', "h1")], idempotency_key="k")
    store.update_metadata("g1", {"status": "over"})
    store.put_snapshot("g1", 2, b"\x00state")
    store.close()

    reopened = open_store(path)  # runs schema.sql again; migrations must not re-apply
    try:
        again = reopened.append("g1", [NewEvent("strike", 2, b'{"n":2}')], idempotency_key="k")
        assert again.replayed and (again.first_seq, again.events) == (first.first_seq, first.events)
        assert reopened.read("g1")[1] == first.events[0]
        game = reopened.get_game("g1")
        assert (game.metadata, game.last_seq, game.tournament) == ({"names": {"p1": "Ann"}, "status": "over"}, 2, "cup")
        assert reopened.get_snapshot("g1", 2) == (2, b"\x00state")
        assert reopened.append("g1", [NewEvent("strike", 2, b"{}")], expected_seq=2).first_seq == 3
    finally:
        reopened.close()
    if "://" in path:
        import psycopg

        from replay.store.postgres_store import PG

        with psycopg.connect(path) as conn:
            applied = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
        assert [v for (v,) in applied] == [version for version, _, _ in PG.migrations()]
        return
    with duckdb.connect(str(path)) as conn:
        applied = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    assert [v for (v,) in applied] == [version for version, _, _ in migrations()]
