"""Issue 30: the ``games`` table's ``catalogue`` column (DuckDB migration 016, PostgreSQL 005, the memory store's
records): the content id of the catalogue a game plays, NULL for its system's default, on every write path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.catalogue import catalogue_id
from replay.catalogues import CatalogueBook
from replay.log.service import GameService
from replay.store.base import EventStore
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore
from tests.replay.test_store_contract import SchemaPostgresStore, TickingClock

BORDER_MARCHES = Path(__file__).parents[2] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"
PLAYERS = [{"id": "p1", "army": "fenlings"}, {"id": "p2", "army": "stonewardens"}]


@pytest.fixture(params=["memory", "duckdb", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    opened: EventStore
    if request.param == "memory":
        opened = MemoryEventStore()
    elif request.param == "duckdb":
        opened = DuckDBEventStore(tmp_path / "games.duckdb")
    else:
        opened = SchemaPostgresStore(TickingClock())
    yield opened
    opened.close()


def catalogue_column(store: EventStore) -> dict[str, Any]:
    """game id -> the ``catalogue`` column of ``games``, read with SQL (the memory store: its records)."""
    if isinstance(store, DuckDBEventStore):
        reader = store.reader()
        try:
            return dict(reader.execute("SELECT game_id, catalogue FROM games").fetchall())
        finally:
            reader.close()
    if isinstance(store, MemoryEventStore):
        return {g.game_id: g.metadata.get("catalogue") for g in store.list_games().games}
    with store.connection() as conn:  # type: ignore[attr-defined]
        return dict(conn.execute("SELECT game_id, catalogue FROM games").fetchall())


def test_games_table_records_the_catalogue_a_game_plays_null_for_the_default(store: EventStore) -> None:
    document = json.loads(BORDER_MARCHES.read_text(encoding="utf-8"))
    summary, _ = CatalogueBook(store).add(document)  # type: ignore[arg-type]
    service = GameService(store)
    on_marches = service.create_game({"system": "lords-of-war", "players": PLAYERS, "catalogue": summary.id,
                                      "seed": 3}).game_id
    default = service.create_game({"system": "lords-of-war", "seed": 3,
                                   "players": [{"id": "p1", "army": "orcs"}, {"id": "p2", "army": "elves"}]}).game_id
    assert summary.id == catalogue_id(document)
    assert catalogue_column(store) == {on_marches: summary.id, default: None}
    assert store.get_game(on_marches).metadata["catalogue"] == summary.id
