"""warlog stats / sql / export-parquet / reproject on a DuckDB file holding the hand-made fixture games."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "replay"))

import stats_fixtures as fx  # noqa: E402

from api.cli import main  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "w.duckdb"
    clock = fx.Clock()
    store = DuckDBEventStore(path, clock=clock)
    fx.load(store, clock)
    store.close()
    return str(path)


def test_warlog_stats_json_and_table(db, capsys):
    assert main(["stats", "armies", "--db", db, "--json", "--min-games", "2"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert [(r["army"], r["games"]) for r in body["rows"]] == [("dwarves", 3), ("orcs", 2)]
    assert main(["stats", "heatmap", "--db", db, "--army", "dwarves"]) == 0
    out = capsys.readouterr().out
    assert "D4" in out and "filters: system=lords-of-war, army=dwarves" in out
    assert main(["stats", "rating-history", "--db", db, "--player", "ann", "--json"]) == 0
    assert [p["game_id"] for p in json.loads(capsys.readouterr().out)["rows"]] == ["A", "B", "C"]


def test_warlog_sql_reads_and_refuses_writes(db, capsys):
    # read-only: it sees the projections as the last writer left them (none here: the games were stored bare)
    assert main(["sql", "SELECT game_id, winner FROM proj_games WHERE finished ORDER BY 1", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["reproject", "--db", db]) == 0
    assert "reprojected 5 games" in capsys.readouterr().out
    assert main(["sql", "SELECT game_id, winner FROM proj_games WHERE finished ORDER BY 1", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"game_id": "A", "winner": "p1"}, {"game_id": "B", "winner": "p1"}, {"game_id": "C", "winner": "p2"},
        {"game_id": "D", "winner": "draw"}]
    for statement in ("DELETE FROM events", "CREATE TABLE x (a INT)", "COPY events TO '/tmp/leak.csv'"):
        assert main(["sql", statement, "--db", db]) == 2
        assert "refused" in capsys.readouterr().err
    conn = duckdb.connect(db, read_only=True)
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 45
    conn.close()


def test_warlog_export_parquet_partitions_by_system_and_month(db, tmp_path, capsys):
    out = tmp_path / "parquet"
    assert main(["export-parquet", str(out), "--db", db]) == 0
    assert sorted(p.name for p in (out / "proj_games" / "system=lords-of-war").iterdir()) == [
        "month=2026-01", "month=2026-02"]
    conn = duckdb.connect()
    rows = conn.execute(
        "SELECT month, count(*) FROM read_parquet($glob, hive_partitioning = true) GROUP BY month ORDER BY month",
        {"glob": str(out / "events" / "**" / "*.parquet")},
    ).fetchall()
    assert rows == [("2026-01", 18 + 11), ("2026-02", 8 + 6 + 2)]  # events of A + B in January, C + D + E in February
    placements = conn.execute(
        "SELECT count(*) FROM read_parquet($glob, hive_partitioning = true)",
        {"glob": str(out / "low_placements" / "**" / "*.parquet")},
    ).fetchone()[0]
    assert placements == 14
