"""The statistics catalogue is the one description of every statistic: the routes, the command line's names and
flags come from it; each system's statistics part implements the protocols; a system's migration chain is applied
after the shared one, each migration once, and one that fails leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.cli import build_parser
from api.settings import Settings
from engine.systems import DEFAULT_SYSTEM
from replay.analytics.catalogue import CORE, catalogue
from replay.plugin import Analytics, Labels
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.sql import SqlFolder
from replay.systems import get_plugin, plugin_names, plugins


def test_names_and_paths_are_unique_and_owned():
    entries = catalogue()
    assert len({s.name for s in entries}) == len({s.path for s in entries}) == len(entries)
    assert all(s.system is None for s in CORE)
    owned = {s.name: s.system for s in entries if s.system is not None}
    assert owned == {s.name: plugin.name for plugin in plugins() if plugin.analytics
                     for s in plugin.analytics.statistics}  # each system's own, named after it
    assert {"cards": "lords-of-war", "heatmap": "lords-of-war"}.items() <= owned.items()
    assert DEFAULT_SYSTEM == "lords-of-war"


@pytest.mark.parametrize("name", plugin_names())
def test_each_systems_statistics_parts_implement_the_protocols(name):
    plugin = get_plugin(name)
    assert isinstance(plugin.labels, Labels) and isinstance(plugin.analytics, Analytics)
    assert plugin.analytics.sql.chain == name and plugin.analytics.sql.migrations()
    for table in plugin.analytics.exports:
        assert plugin.analytics.sql(f"parquet_{table}")


def test_the_routes_and_the_command_line_come_from_the_catalogue():
    store = DuckDBEventStore(":memory:")
    try:
        with TestClient(create_app(Settings(db=":memory:"), store=store)) as http:
            paths = {p for p in http.get("/openapi.json").json()["paths"] if p.startswith("/stats/")}
            assert paths == {f"/stats{s.path}" for s in catalogue()}
            document = http.get("/openapi.json").json()
            heatmap = {p["name"] for p in document["paths"]["/stats/heatmap"]["get"]["parameters"]}
            assert {"card", "owner_view", "include_challenge", "system", "army"} <= heatmap
            history = document["paths"]["/stats/ratings/{player}/history"]["get"]["parameters"]
            assert [p["in"] for p in history if p["name"] == "player"] == ["path"]
    finally:
        store.close()
    stats = build_parser()._subparsers._group_actions[0].choices["stats"]  # type: ignore[union-attr]
    name = next(a for a in stats._actions if a.dest == "name")
    assert list(name.choices) == [s.name for s in catalogue()]
    flags = {option for action in stats._actions for option in action.option_strings}
    assert {"--card", "--owner-view", "--include-challenge", "--player", "--opponent", "--limit"} <= flags


def test_a_chain_runs_after_the_shared_one_once_and_a_failing_migration_leaves_nothing(tmp_path: Path):
    folder = tmp_path / "sql"
    (folder / "migrations").mkdir(parents=True)
    (folder / "migrations" / "001_first.sql").write_text("CREATE TABLE t_first (a INTEGER);")
    chain = SqlFolder(folder, "example")
    db = tmp_path / "c.duckdb"
    store = DuckDBEventStore(db)
    assert store.migrate(chain) == [("example", 1, "first")]
    assert store.migrate(chain) == []
    (folder / "migrations" / "002_broken.sql").write_text(
        "CREATE TABLE t_second (a INTEGER); INSERT INTO t_nowhere VALUES (1);")
    broken = SqlFolder(folder, "example")
    with pytest.raises(duckdb.CatalogException):
        store.migrate(broken)
    store.close()
    conn = duckdb.connect(str(db))
    tables = {name for (name,) in conn.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert "t_first" in tables and "t_second" not in tables  # the failed migration's table was rolled back
    assert conn.execute("SELECT chain, version FROM system_migrations").fetchall() == [("example", 1)]
    shared = max(int(m.name[:3]) for m in (Path(__file__).parents[2] / "replay" / "sql" / "migrations").glob("*.sql"))
    assert conn.execute("SELECT max(version) FROM schema_migrations").fetchall() == [(shared,)]  # the shared chain
    conn.close()
