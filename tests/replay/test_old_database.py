"""A database written before the statistics were split into a core and per-system parts opens and answers the same
statistics: every one of them, under several filters, equal to what the code of commit 9e7f3fe answered on it
(tests/fixtures/db_9e7f3fe: that code's tables and rows as SQL and CSV, its answers as JSON; generate.py there says
how they were made). Then once more after `warlog reproject` rebuilt every projection with today's code."""

from __future__ import annotations

import gzip
import json
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from replay.analytics.catalogue import run, statistic
from replay.analytics.projections import attach
from replay.analytics.stats import Filters, known_armies
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.records_helpers import warlog

FIXTURE = Path(__file__).parents[1] / "fixtures" / "db_9e7f3fe"
PLAYERS = ("ann", "bob", "cy", "dee")
FILTERS = {  # as generate.py asked them
    "all": Filters(),
    "spring": Filters(tournament="spring"),
    "orcs": Filters(army="orcs"),
    "min2": Filters(min_games=2),
    "standard": Filters(variant="standard"),
    "unbounded": Filters(variant="unbounded"),
    "january": Filters(date_from=date(2026, 1, 1), date_to=date(2026, 1, 31)),
    "rules1": Filters(rules_version="lords-of-war/1"),
}
OPTIONS = {  # the last part of an answer's key -> the statistic's parameters
    "owner": {"owner_view": True},
    "challenge": {"include_challenge": True},
    "catapult": {"card": "orcs/orc-catapult"},
    "limit2": {"limit": 2},
    "ann-bob": {"player": "ann", "opponent": "bob"},
    **{player: {"player": player} for player in PLAYERS},
}


def old_database(path: Path) -> None:
    """The fixture's schema and rows in a new DuckDB file, as the old code left them (no migration run)."""
    conn = duckdb.connect(str(path))
    conn.execute((FIXTURE / "schema.sql").read_text())
    for table in sorted(FIXTURE.glob("*.csv.gz")):
        conn.execute(f"COPY {table.name.removesuffix('.csv.gz')} FROM '{table}' "
                     "(FORMAT csv, HEADER, allow_quoted_nulls false)")
    conn.close()


def answer(conn: Any, key: str) -> Any:
    if key == "known-armies":
        return known_armies(conn, "lords-of-war")
    name, filters, *option = key.split("|")
    params = OPTIONS[option[0]] if option else {}
    if name == "ratings":
        params = {"limit": None} | params  # the old call: every row
    return run(statistic(name), conn, FILTERS[filters], params)


def answers(conn: Any, expected: dict[str, Any]) -> dict[str, Any]:
    return {key: _as_then(json.loads(msgspec.json.encode(answer(conn, key)))) for key in expected}


def _as_then(data: Any) -> Any:
    """An answer without the fields added since the fixture was made, where they are empty: the ``ending`` and
    ``catalogue`` filters echoed in ``filters`` and an end reason's ``adjudication`` (issues 28 and 30; no game of
    the fixture is adjudicated or plays a catalogue)."""
    if isinstance(data, dict):
        return {k: _as_then(v) for k, v in data.items()
                if not (k in ("ending", "adjudication", "catalogue") and v is None)}
    if isinstance(data, list):
        return [_as_then(v) for v in data]
    return data


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return json.loads(gzip.decompress((FIXTURE / "expected.json.gz").read_bytes()))


def test_a_database_from_before_the_split_answers_the_same_statistics_before_and_after_reprojecting(
    tmp_path: Path, expected: dict[str, Any]
) -> None:
    path = tmp_path / "old.duckdb"
    old_database(path)
    before = duckdb.connect(str(path))
    kept = {t: before.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
            for t in ("proj_players", "proj_placements", "proj_kills", "proj_shots", "proj_card_daily")}
    before.close()
    assert kept["proj_placements"] > 100 and len(expected) > 150

    store = DuckDBEventStore(path)  # the shared chain moves it forward (migrations 011 to 019)...
    projector = attach(store, background=False)  # ...and Lords of War's own chain comes after it
    conn = store.reader()
    try:
        assert [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()][-1] == 19
        chains = conn.execute("SELECT chain, version FROM system_migrations").fetchall()
        assert sorted(row for row in chains if row[0] == "lords-of-war") == [("lords-of-war", 1), ("lords-of-war", 2)]
        assert {t: conn.execute(f"SELECT count(*) FROM {LOW[t]}").fetchall()[0][0] for t in kept} == kept  # data kept
        assert projector.lag() == (0, 0)  # nothing was projected again: the migration filled the core tables

        got = answers(conn, expected)
        # the statistics issue 32 item 8 redefined (CHANGELOG) answer as they count now: a card's copies together,
        # a heat map's shares over the mat, a mirror matchup once; every other answer is the fixture's
        assert [key for key in expected if key.split("|")[0] not in REDEFINED and got[key] != expected[key]] == []

        projector.rebuild()  # today's projection code, from the log
        assert answers(conn, expected) == got  # the migrated tables answer what a projection from the log answers
    finally:
        conn.close()
        projector.close()
        store.close()


REDEFINED = {"cards", "heatmap", "matchups"}
LOW = {"proj_players": "low_players", "proj_placements": "low_placements", "proj_kills": "low_kills",
       "proj_shots": "low_shots", "proj_card_daily": "low_card_daily"}


def test_lords_of_war_tables_get_the_low_prefix_and_their_old_names_stay_as_views_for_warlog_sql(
    tmp_path: Path
) -> None:
    """Issue 29 item 7: Lords of War's analytics tables are ``low_*`` (the core keeps ``proj_``); Lords of War's
    migration 002 renames them in an old database, rows kept, and leaves a view under each old name for one release,
    so a ``warlog sql`` query of the old names answers the same."""
    path = tmp_path / "old.duckdb"
    old_database(path)
    before = duckdb.connect(str(path))
    rows = {old: before.execute(f"SELECT * FROM {old} ORDER BY ALL").fetchall() for old in LOW}
    before.close()
    store = DuckDBEventStore(path)
    attach(store, background=False).close()  # Lords of War's chain
    conn = store.reader()
    try:
        kinds = dict(conn.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall())
        for old, new in LOW.items():
            assert (kinds[new], kinds[old]) == ("BASE TABLE", "VIEW"), old
            assert conn.execute(f"SELECT * FROM {new} ORDER BY ALL").fetchall() == rows[old]
    finally:
        conn.close()
        store.close()
    for old in LOW:
        said = warlog("sql", f"SELECT count(*) AS n FROM {old}", "--json", "--db", str(path))
        assert said.returncode == 0, said.stderr
        assert json.loads(said.stdout) == [{"n": len(rows[old])}], old


def test_a_new_database_has_the_low_tables_and_the_old_names_as_views(tmp_path: Path) -> None:
    store = DuckDBEventStore(tmp_path / "new.duckdb")
    attach(store, background=False).close()
    conn = store.reader()
    try:
        kinds = dict(conn.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall())
        assert {kinds.get(new) for new in LOW.values()} == {"BASE TABLE"}
        assert {kinds.get(old) for old in LOW} == {"VIEW"}
    finally:
        conn.close()
        store.close()


def test_a_database_from_before_the_listing_lists_its_games_by_army(tmp_path: Path) -> None:
    """Migration 012: games stored before GET /games's `army` filter existed get their seats' labels from the
    projection, so the filter (and the pages' game list) finds them like games stored today."""
    path = tmp_path / "old.duckdb"
    old_database(path)
    before = duckdb.connect(str(path))
    seats = before.execute("SELECT game_id, army_p1, army_p2 FROM proj_games").fetchall()
    assert before.execute("SELECT count(*) FROM games WHERE metadata LIKE '%armies%'").fetchall() == [(0,)]
    before.close()
    expected = {army: sorted(g for g, a1, a2 in seats if army in (a1, a2)) for army in ("orcs", "elves", "dwarves")}
    assert all(expected.values()) and len({tuple(v) for v in expected.values()}) == 3

    store = DuckDBEventStore(path)
    try:
        for army, games in expected.items():
            listed = [g.game_id for g in store.list_games(army=army, limit=500).games]
            assert sorted(listed) == games, army
        one = store.get_game(expected["orcs"][0])
        assert set(one.metadata["armies"]) == {"p1", "p2"} and "orcs" in one.metadata["armies"].values()
        assert store.list_games(army="nobody").games == []
    finally:
        store.close()
