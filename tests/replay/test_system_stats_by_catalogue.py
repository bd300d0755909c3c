"""Issue 30 item 6 for the systems' own statistics: each system's statistics filter by catalogue (``?catalogue=``,
``warlog stats NAME --catalogue``) and name cards by the names in that catalogue.

For each system, bot games on its second sample catalogue (tests/conformance/catalogues.py), on a copy of it with one
card renamed (another catalogue: another id), and on its default are recorded into one database. Every statistic of
the system's own, filtered by either catalogue, is the same table as over a database holding that catalogue's games
alone, and counts the finished games a fold of those games' events gives; the renamed card is named by each
catalogue's name."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from engine.systems import get_system
from replay.analytics import projections
from replay.analytics.catalogue import catalogue
from replay.archive.games import store_events
from replay.catalogues import CatalogueBook, defaults
from replay.log.demo import demo_catalogue, record_demo_games
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.records_helpers import warlog
from tests.conformance.catalogues import SECOND_CATALOGUES, document

SYSTEMS = [name for name, _ in SECOND_CATALOGUES]
# the statistics that name cards: statistic -> the field of a row with the card's id, the field with its name
NAMED = {"cards": ("card", "name"), "hs-cards": ("card", "name")}
RENAMED = "Renamed For The Test"


def renamed(played: dict[str, Any], system: str) -> tuple[dict[str, Any], str | None]:
    """``played`` with the first card of its first army renamed (another catalogue), and that card's id (None for a
    system whose catalogue names no card a statistic shows)."""
    other = copy.deepcopy(played)
    other["version"] = f"{other['version']}-renamed"
    if system == "lords-of-war":  # a card and its copies (-1, -2: one row of the statistic)
        card = copies(other["armies"][0]["cards"][0]["card"])
    elif system == "heroscape":
        card = other["armies"][0]["cards"][0]
    else:
        return other, None
    for entry in other["cards"]:
        if copies(entry["id"]) == card:
            entry["name"] = RENAMED
    return other, card


def copies(card: str) -> str:
    """A Lords of War card id without its copy suffix (a row of ``cards``); any other card id as it is."""
    return re.sub(r"-[0-9]+$", "", card) if "/" in card else card


class Database:
    """The games of one system: on its second catalogue (``first``), on the renamed copy (``second``), on its
    default; and the same games of each catalogue alone in a database of their own (``alone``)."""

    def __init__(self, folder: Path, system: str) -> None:
        self.system = system
        played = document(dict(SECOND_CATALOGUES)[system])
        other, self.card = renamed(played, system)
        self.path = folder / "mixed.duckdb"
        self.alone: dict[str, Path] = {}
        self.finished: dict[str, int] = {}
        store = DuckDBEventStore(self.path)
        service = GameService(store)
        book = CatalogueBook(store)
        self.first, self.second = book.add(played)[0].id, book.add(other)[0].id
        self.documents = {self.first: played, self.second: other}
        ids: dict[str, list[str]] = {}
        for n, identity in enumerate((self.first, self.second)):
            on = demo_catalogue(service, system, identity)
            ids[identity] = [g.game_id for g in record_demo_games(service, 2, seed=11 + 10 * n, system=system,
                                                                  catalogue=on)]
        on_default = [g.game_id for g in record_demo_games(service, 1, seed=41, system=system)]  # one on the default
        chosen = get_system(system)
        self.default_finished = sum(chosen.outcome(chosen.fold([r.event for r in service.events(g)])) is not None
                                    for g in on_default)
        for identity, games in ids.items():
            events = {g: [r.event for r in service.events(g)] for g in games}
            self.finished[identity] = sum(chosen.outcome(chosen.fold(e)) is not None for e in events.values())
            path = self.alone[identity] = folder / f"{identity}.duckdb"
            alone = DuckDBEventStore(path)
            CatalogueBook(alone).add(self.documents[identity])
            for game_id, played_events in events.items():
                store_events(GameService(alone), system, played_events, game_id,
                             players=store.get_game(game_id).players)
            projections.attach(alone, background=False).close()
            alone.close()
        projections.attach(store, background=False).close()
        store.close()


@pytest.fixture(scope="module", params=SYSTEMS)
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    yield Database(tmp_path_factory.mktemp(request.param), request.param)


def own(system: str) -> list[Any]:
    return [s for s in catalogue() if s.system == system and "{" not in s.path]


def without_filters(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k != "filters"}


def test_system_statistics_filtered_by_catalogue_count_its_games_alone_with_its_names(database: Database) -> None:
    system = database.system
    assert own(system), f"{system} has statistics of its own"
    with TestClient(create_app(Settings(db=str(database.path)))) as mixed:
        for identity in (database.first, database.second):
            with TestClient(create_app(Settings(db=str(database.alone[identity])))) as alone:
                for statistic in own(system):
                    params = {"system": system, "catalogue": identity}
                    got = mixed.get(f"/stats{statistic.path}", params=params)
                    assert got.status_code == 200, (statistic.name, got.text)
                    expected = alone.get(f"/stats{statistic.path}", params=params)
                    assert expected.status_code == 200, (statistic.name, expected.text)
                    assert without_filters(got.json()) == without_filters(expected.json()), statistic.name
                    assert got.json()["games"] == database.finished[identity], statistic.name
                    assert got.json()["filters"]["catalogue"] == identity
        everything = mixed.get(f"/stats{own(system)[0].path}", params={"system": system}).json()
        assert everything["games"] == sum(database.finished.values()) + 1  # no filter: every game, the default's too
    for name, (key, label) in NAMED.items():
        if database.card is None or name not in {s.name for s in own(system)}:
            continue
        names = {}
        for identity in (database.first, database.second):
            with TestClient(create_app(Settings(db=str(database.path)))) as client:
                rows = client.get(f"/stats{next(s.path for s in own(system) if s.name == name)}",
                                  params={"system": system, "catalogue": identity}).json()["rows"]
            names[identity] = {r[key]: r[label] for r in rows}
        card = database.card
        for identity, found in names.items():  # every card by its catalogue's name
            assert found == {c: next(e["name"] for e in database.documents[identity]["cards"] if copies(e["id"]) == c)
                             for c in found}
        assert names[database.second][card] == RENAMED and names[database.first][card] != RENAMED


def test_system_statistics_on_the_command_line_take_the_catalogue_filter(database: Database) -> None:
    system = database.system
    statistic = own(system)[0]
    printed = warlog("stats", statistic.name, "--system", system, "--catalogue", database.first, "--json",
                     "--db", str(database.path))
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout)["games"] == database.finished[database.first]


def test_a_system_statistic_that_does_not_count_by_catalogue_is_refused_the_filter() -> None:
    """A system's statistic says it counts by catalogue (``Statistic.by_catalogue``): the five systems' all do; one
    that does not (a plug-in's written before) is refused the filter rather than answering for every game."""
    from replay.analytics.catalogue import unsupported_filter
    from replay.analytics.model import Statistic
    from replay.analytics.stats import Filters

    assert all(s.by_catalogue for s in catalogue() if s.system is not None)
    older = Statistic(name="older", path="/older", summary="", result=dict, system="pebbles",
                      compute=lambda conn, filters, params, cache: {})
    refused = unsupported_filter(older, Filters(system="pebbles", catalogue="c-" + "0" * 32))
    assert refused is not None and "does not filter by catalogue" in refused
    assert unsupported_filter(older, Filters(system="pebbles")) is None


def test_system_statistics_by_catalogue_on_postgresql_count_its_games_and_name_its_cards(tmp_path: Path) -> None:
    """Beside a PostgreSQL log the statistics are answered from the DuckDB file the analytics leader publishes: it
    holds the catalogues the mirrored games play, so a system's statistic filtered by one counts its games and names
    its cards as that catalogue does."""
    from replay.analytics import beside
    from replay.analytics.stats import Filters
    from replay.heroscape.analytics import cards
    from replay.store.postgres_store import PostgresEventStore
    from tests.pg import fresh_schema
    from tests.replay.test_postgres_store import wait_for

    played = document(dict(SECOND_CATALOGUES)["heroscape"])
    other, card = renamed(played, "heroscape")
    with fresh_schema() as url:
        store = PostgresEventStore(url)
        keeper = None
        try:
            service = GameService(store)
            book = CatalogueBook(store)
            first, second = book.add(played)[0].id, book.add(other)[0].id
            for n, identity in enumerate((first, second)):
                on = demo_catalogue(service, "heroscape", identity)
                list(record_demo_games(service, 1, seed=5 + n, system="heroscape", catalogue=on))
            keeper = beside.Beside(store, tmp_path / "stats.duckdb")
            assert wait_for(lambda: keeper is not None and keeper.leader, 60)
            assert keeper.flush(timeout=120)
            conn = keeper.stats.reader()
            try:
                for identity, name in ((first, next(c["name"] for c in played["cards"] if c["id"] == card)),
                                       (second, RENAMED)):
                    answer = cards(conn, Filters(system="heroscape", catalogue=identity))
                    assert answer.games == 1
                    assert {r.card: r.name for r in answer.rows}[card] == name
            finally:
                conn.close()
        finally:
            if keeper is not None:
                keeper.close()
            store.close()


def test_statistics_filtered_by_a_systems_default_catalogue_count_the_games_played_on_it(database: Database) -> None:
    """A game on its system's default catalogue keeps no catalogue id (the default is the same as none), so the
    filter by the default's id (a default catalogue page's links to the statistics) found no game at all. It counts
    the games played on the default: a system's own statistics count its one default game; every core statistic's
    games, filtered by each of the three catalogues, add up to its games unfiltered (a partition)."""
    system = database.system
    default = defaults()[system][0].id
    assert database.default_finished == 1
    core = [s for s in catalogue() if s.system is None and "{" not in s.path]
    with TestClient(create_app(Settings(db=str(database.path)))) as client:
        def games(statistic: Any, identity: str | None) -> Any:
            params = {"system": system} | ({"catalogue": identity} if identity else {})
            got = client.get(f"/stats{statistic.path}", params=params)
            assert got.status_code == 200, (statistic.name, got.text)
            return got.json().get("games")
        for statistic in own(system):
            assert games(statistic, default) == database.default_finished, statistic.name
        for statistic in core:
            counted = [games(statistic, identity) for identity in (default, database.first, database.second)]
            if None not in counted:
                assert sum(counted) == games(statistic, None), (statistic.name, counted)
