"""Issue 11 item 19: ``warlog export-parquet`` writes timestamps as TIMESTAMP and JSON payloads as JSON."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.helpers import new_game, play
from tests.api.records_helpers import warlog

TYPED = {
    "events": {"recorded_at": "TIMESTAMP", "payload": "JSON"},
    "games": {"created_at": "TIMESTAMP", "metadata": "JSON"},
    "proj_games": {"started_at": "TIMESTAMP", "ended_at": "TIMESTAMP"},
    "low_players": {"ended_at": "TIMESTAMP"},
}


def test_export_parquet_columns_are_typed(tmp_path: Path) -> None:
    db, out = tmp_path / "w.duckdb", tmp_path / "parquet"
    store = DuckDBEventStore(db)
    with TestClient(create_app(Settings(db=str(db)), store=store)) as client:
        game_id, tokens = new_game(client)
        play(client, game_id, tokens)
    store.close()
    done = warlog("export-parquet", str(out), "--db", str(db))
    assert done.returncode == 0, done.stderr

    conn = duckdb.connect()
    for table, columns in TYPED.items():
        glob = str(out / table / "**" / "*.parquet")
        described = {r[0]: r[1] for r in conn.execute(
            "DESCRIBE SELECT * FROM read_parquet($glob, hive_partitioning = true)", {"glob": glob}).fetchall()}
        assert {c: described[c] for c in columns} == columns, table
    events = str(out / "events" / "**" / "*.parquet")
    placed = conn.execute(
        "SELECT payload->>'card', payload->>'square', recorded_at FROM read_parquet($glob, hive_partitioning = true) "
        "WHERE type = 'placed' ORDER BY seq LIMIT 1", {"glob": events}).fetchone()
    assert placed[0].startswith("orcs/") and placed[1] == "C3" and isinstance(placed[2], datetime)
    stored = duckdb.connect(str(db), read_only=True)
    recorded = stored.execute(
        "SELECT recorded_at FROM events WHERE game_id = $g AND seq = 1", {"g": game_id}
    ).fetchone()[0]
    stored.close()
    first = conn.execute("SELECT recorded_at FROM read_parquet($glob, hive_partitioning = true) WHERE seq = 1",
                         {"glob": events}).fetchone()[0]
    assert first.isoformat(timespec="microseconds") + "Z" == recorded  # the same instant, UTC
    metadata = conn.execute("SELECT metadata FROM read_parquet($glob, hive_partitioning = true)",
                            {"glob": str(out / "games" / "**" / "*.parquet")}).fetchone()[0]
    assert '"status":"over"' in metadata.replace(" ", "") and "token_hashes" not in metadata
