"""Databases written by the code of commit f79f774, whose tournaments had their own tables (``tournaments``,
``tournament_events``) beside the games, open with today's code: the migrations move each tournament into a stream
of the event store, and every tournament reads as f79f774 answered: over HTTP (the tournament, its tables, its
standings, its games, the list) and on the command line (``show``, ``standings``, ``list``), DuckDB and PostgreSQL.
tests/fixtures/db_f79f774 holds f79f774's tables and rows and its answers (generate.py there says how they were
made)."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.cli import main
from api.settings import Settings
from replay.store.open import open_store
from tests.pg import fresh_schema

FIXTURE = Path(__file__).parents[1] / "fixtures" / "db_f79f774"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))


def old_duckdb(path: Path) -> None:
    """The fixture's DuckDB tables and rows in a new file, as f79f774 left them (no migration of today's run)."""
    folder = FIXTURE / "duckdb"
    conn = duckdb.connect(str(path))
    conn.execute((folder / "schema.sql").read_text(encoding="utf-8"))
    for table in sorted(folder.glob("*.csv.gz")):
        conn.execute(f"COPY {table.name.removesuffix('.csv.gz')} FROM '{table}' "
                     "(FORMAT csv, HEADER, allow_quoted_nulls false)")
    conn.close()


def old_postgres(url: str) -> None:
    """The fixture's PostgreSQL tables (made by f79f774's migrations) and rows in the empty schema of ``url``."""
    import psycopg

    folder = FIXTURE / "postgres"
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute((folder / "schema.sql").read_text(encoding="utf-8").encode())
        for migration in sorted((folder / "migrations").glob("*.sql")):
            conn.execute(migration.read_text(encoding="utf-8").encode())
        for table in sorted(folder.glob("*.csv.gz")):
            with conn.cursor().copy(f"COPY {table.name.removesuffix('.csv.gz')} FROM STDIN WITH (FORMAT csv, HEADER)"
                                    ) as copy:
                copy.write(gzip.decompress(table.read_bytes()))


def cli(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    return out.getvalue()


def answers(db: str, ids: list[str], stats: Path) -> dict[str, Any]:
    """What today's code answers to the questions f79f774 was asked (generate.py's ``answers``); ``stats``: where a
    server on PostgreSQL publishes its statistics (never the working directory)."""
    out: dict[str, Any] = {}
    with TestClient(create_app(Settings(db=db, stats_db=str(stats)))) as client:
        out["GET /tournaments"] = client.get("/tournaments").json()
        out["GET /games"] = [g["id"] for g in client.get("/games", params={"limit": 500}).json()["games"]]
        for tid in ids:
            out[f"GET /tournaments/{tid}"] = client.get(f"/tournaments/{tid}").json()
            out[f"GET /tournaments/{tid}/standings"] = client.get(f"/tournaments/{tid}/standings").json()
            out[f"GET /games?tournament={tid}"] = [
                g["id"] for g in client.get("/games", params={"tournament": tid, "limit": 500}).json()["games"]]
    for tid in ids:
        out[f"tournament show {tid} --json"] = json.loads(cli("tournament", "show", tid, "--json", "--db", db))
        out[f"tournament standings {tid} --json"] = json.loads(cli("tournament", "standings", tid, "--json", "--db",
                                                                   db))
    out["tournament list"] = cli("tournament", "list", "--db", db)
    return out


def assert_read_the_same(db: str, backend: str, stats: Path) -> None:
    expected = EXPECTED[backend]
    got = answers(db, expected["tournaments"], stats)
    assert set(got) == set(expected["answers"])
    for question, answer in expected["answers"].items():
        assert answered_then(got[question], answer), question


def answered_then(now: Any, then: Any) -> bool:
    """Whether today's answer holds f79f774's: every field it answered, the same (fields added since, such as a
    player's attendance of issue 31, may be there too); lists item by item, other values equal."""
    if isinstance(then, dict):
        return isinstance(now, dict) and all(key in now and answered_then(now[key], value)
                                             for key, value in then.items())
    if isinstance(then, list):
        return isinstance(now, list) and len(now) == len(then) and all(map(answered_then, now, then))
    return bool(now == then)


def assert_streams(db: str, ids: list[str]) -> None:
    """Each tournament is a stream of the store (of kind ``tournament``), listed by the store as such and never as
    a game."""
    store = open_store(db)
    try:
        for tid in ids:
            stream = store.get_stream(tid)
            assert (stream.kind, stream.last_seq) == ("tournament", len(store.read(tid)))
            assert store.read(tid)[0].type == "tournament_created"
        assert [s.stream_id for s in store.list_streams("tournament").streams] == ids
        listed = {g.game_id for g in store.list_games(limit=1000).games}
        assert listed and not listed & set(ids)
    finally:
        store.close()


def test_f79f774_duckdb_tournaments_move_into_streams_and_read_the_same(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    old_duckdb(db)
    assert_read_the_same(str(db), "duckdb", tmp_path / "stats.duckdb")
    assert_streams(str(db), EXPECTED["duckdb"]["tournaments"])
    conn = duckdb.connect(str(db), read_only=True)
    try:
        kinds = dict(conn.execute("SELECT table_name, table_type FROM information_schema.tables WHERE table_name IN "
                                  "('tournaments', 'tournament_events', 'games', 'events')").fetchall())
        assert kinds == dict.fromkeys(("tournaments", "tournament_events", "games", "events"), "VIEW")
        # the old tables' rows, read through the views kept for `warlog sql` users, are the rows f79f774 wrote
        columns = "tournament_id, seq, type, payload, recorded_at"
        logged = FIXTURE / "duckdb" / "tournament_events.csv.gz"
        wrote = duckdb.connect().execute(f"SELECT {columns} FROM read_csv('{logged}', header = true, "
                                         "all_varchar = true)").fetchall()
        reads = conn.execute(f"SELECT {columns} FROM tournament_events ORDER BY 1, 2").fetchall()
        assert sorted((t, int(n), k, json.loads(p), at) for t, n, k, p, at in wrote) == [
            (t, n, k, json.loads(p), at) for t, n, k, p, at in reads]
    finally:
        conn.close()
    assert_read_the_same(str(db), "duckdb", tmp_path / "stats.duckdb")  # and again, migrated: nothing moves twice


@pytest.mark.slow
def test_f79f774_postgres_tournaments_move_into_streams_and_read_the_same(tmp_path: Path) -> None:
    with fresh_schema() as url:
        old_postgres(url)
        assert_read_the_same(url, "postgres", tmp_path / "stats.duckdb")
        assert_streams(url, EXPECTED["postgres"]["tournaments"])
        assert_read_the_same(url, "postgres", tmp_path / "stats.duckdb")
