"""Issue 30 item 6 (first half): the statistics filter by catalogue (``?catalogue=``, ``warlog stats --catalogue``):
they count the games played on it, as a recount from the games' own events gives them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from engine.lords_of_war import SYSTEM
from engine.lords_of_war.bots import play_bot_game
from replay.analytics import projections, stats
from replay.analytics.stats import Filters
from replay.archive.games import store_events
from replay.catalogues import CatalogueBook
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.records_helpers import warlog

BORDER_MARCHES = Path(__file__).parents[2] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"
DEFAULT_GAMES = [("orcs", "dwarves"), ("elves", "undead"), ("templars", "orcs")]
MARCHES_GAMES = [("fenlings", "stonewardens"), ("stonewardens", "fenlings"), ("fenlings", "fenlings")]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, list[list[Any]]]]:
    """A DuckDB file of three games on the default catalogue and three on Border Marches, projected: (its path,
    Border Marches' id, the Border Marches games' events)."""
    path = tmp_path_factory.mktemp("stats") / "games.duckdb"
    store = DuckDBEventStore(path)
    service = GameService(store)
    document = json.loads(BORDER_MARCHES.read_text(encoding="utf-8"))
    summary, _ = CatalogueBook(store).add(document)
    marches = []
    for i, armies in enumerate(DEFAULT_GAMES):
        store_events(service, "lords-of-war", play_bot_game(40 + i, armies=armies), f"d{i}")
    for i, armies in enumerate(MARCHES_GAMES):
        events = play_bot_game(50 + i, armies=armies, catalogue=document)
        store_events(service, "lords-of-war", events, f"m{i}")
        marches.append(events)
    projections.attach(store, background=False).close()
    store.close()
    yield path, summary.id, marches


def recount(games: list[list[Any]]) -> tuple[int, Counter[str]]:
    """From the events alone: the finished games and each army's seats outside mirror matches."""
    seats: Counter[str] = Counter()
    for events in games:
        armies = [p.army_name for p in events[0].players]
        if len(set(armies)) > 1:
            seats.update(armies)
    return sum(SYSTEM.fold(g).phase == "over" for g in games), seats


def test_core_statistics_filtered_by_catalogue_count_the_games_played_on_it(
        database: tuple[Path, str, list[list[Any]]]) -> None:
    path, identity, marches = database
    finished, seats = recount(marches)
    store = DuckDBEventStore(path)
    conn = store.reader()
    try:
        on_it = stats.army_win_rates(conn, Filters(catalogue=identity))
        assert on_it.games == finished == 3
        assert {r.army: r.games for r in on_it.rows} == dict(seats)
        assert stats.game_length(conn, Filters(catalogue=identity)).games == 3
        assert stats.army_win_rates(conn, Filters()).games == 6  # no filter: every game
        assert stats.army_win_rates(conn, Filters(catalogue="c-" + "0" * 32)).games == 0
    finally:
        conn.close()
        store.close()


def test_statistics_routes_and_cli_take_the_catalogue_filter(database: tuple[Path, str, list[list[Any]]]) -> None:
    path, identity, marches = database
    _, seats = recount(marches)
    with TestClient(create_app(Settings(db=str(path)))) as client:
        armies = client.get("/stats/armies", params={"catalogue": identity})
        assert armies.status_code == 200, armies.text
        assert {r["army"]: r["games"] for r in armies.json()["rows"]} == dict(seats)
        cards = client.get("/stats/cards", params={"catalogue": identity})  # the system's own too (migration 018)
        assert cards.status_code == 200, cards.text
        assert cards.json()["games"] == 3 and {r["faction"] for r in cards.json()["rows"]} == {"fenlings",
                                                                                              "stonewardens"}
    printed = warlog("stats", "armies", "--catalogue", identity, "--json", "--db", str(path))
    assert printed.returncode == 0, printed.stderr
    assert {r["army"]: r["games"] for r in json.loads(printed.stdout)["rows"]} == dict(seats)
    cards = warlog("stats", "cards", "--catalogue", identity, "--json", "--db", str(path))
    assert cards.returncode == 0, cards.stderr
    assert json.loads(cards.stdout)["games"] == 3
