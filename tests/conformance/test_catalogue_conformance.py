"""The engine conformance suite (test_engine_conformance.py) run on HeroScape's second sample catalogue, Cliffside
Bay (issue 30 item 7). HeroScape is registered, for each test, with ``sample_setup`` giving setups on that catalogue
(its armies and map, variants in turn); every conformance test that takes a system then runs on those games as it
runs on the built-in data's.

The replay conformance suite (test_replay_conformance.py) runs on such games too (4, in a memory store), the text
record's round trips included (the record carries the catalogue: ``Catalogue``/``CatalogueJSON`` tags).

Light Wars (Marsh Frontier) and the card systems are in the shared list, ``tests/conformance/catalogues.py``;
HeroScape is here until ``setup_on_catalogue`` can move a sample setup's named map onto a catalogue's maps.

Left out: the byte-identity test across processes (its child process plays the installed system's own samples) and
the slow round trip of many games (``MANY_GAMES``: it wants 36 games; 4 are played here)."""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.catalogue import canonical, catalogue_id
from engine.system import seat_id
from engine.systems import SystemPlugin, get_system, plugin_of, registered
from tests.conformance import test_engine_conformance as conformance
from tests.engine.catalogue_given import sample_catalogue

AnySystem = Any

# per system: its fixture folder and catalogue, and the setups its samples cycle through (armies, variant)
SECOND: dict[str, tuple[str, str, tuple[tuple[str, str, dict[str, Any]], ...]]] = {
    "heroscape": ("heroscape", "cliffside-bay", (
        ("tideguard", "emberhost", {}),
        ("wildmoor", "tideguard", {"game": "basic"}),
        ("emberhost", "wildmoor", {"max_rounds": 8}),
        ("tideguard", "wildmoor", {"mode": "table"}),
    )),
}
ACROSS_PROCESSES = {"test_conformance_same_setup_and_bot_seeds_give_the_same_bytes"}
# the slow round trip of 36 games: ``recorded`` below plays at most 4 games a system (HeroScape games are long)
MANY_GAMES = {"test_replay_conformance_many_games_round_trip_and_hide_their_secrets"}


def on_second_catalogue(system: AnySystem) -> AnySystem:
    folder, sample, games = SECOND[system.name]
    # as the server hands it to the engine (POST /games resolves a stored catalogue): the canonical document, the
    # form a text record's CatalogueJSON carries, so a game imported from its record is the same bytes
    document = json.loads(canonical(sample_catalogue(folder, sample)))

    def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
        if seats is not None and seats != 2:
            refused: dict[str, Any] = system.sample_setup(index, seed, seats)  # raises as the system does
            return refused
        first, second, variant = games[index % len(games)]
        players = [{"id": seat_id(0), "army": first}, {"id": seat_id(1), "army": second}]
        return {"system": system.name, "players": players, "variant": dict(variant), "seed": seed,
                "catalogue": document}

    return dataclasses.replace(system, sample_setup=sample_setup)


def engine_tests() -> list[Callable[[AnySystem], None]]:
    return [test for name, test in vars(conformance).items()
            if name.startswith("test_conformance_") and name not in ACROSS_PROCESSES
            and list(inspect.signature(test).parameters) == ["system"]]


@pytest.fixture(params=sorted(SECOND))
def second(request: pytest.FixtureRequest) -> Iterator[AnySystem]:
    installed = plugin_of(request.param)
    wrapped = on_second_catalogue(get_system(request.param))
    plugin = SystemPlugin(installed.name, engine=wrapped, replay=installed.replay, api=installed.api)
    with registered(plugin, replace=True):
        yield wrapped


@pytest.mark.parametrize("test", engine_tests(), ids=lambda t: t.__name__.removeprefix("test_conformance_"))
def test_catalogue_conformance_on_the_second_sample_catalogue(second: AnySystem, test: Callable[[Any], None]) -> None:
    test(second)
    folder, sample, _ = SECOND[second.name]
    for index in (0, 1):  # the games the test played are on the second catalogue
        assert conformance.played(second, index)[1].events[0].catalogue_id == catalogue_id(
            sample_catalogue(folder, sample))


# -- the replay conformance suite on the same games -------------------------------------------------------------


def replay_tests() -> list[Callable[..., None]]:
    """The replay conformance tests that take a system's name and its recorded games (and a store kind, a folder)."""
    from tests.conformance import test_replay_conformance as replay

    wanted = ({"name", "recorded"}, {"name", "kind", "recorded"}, {"name", "kind", "recorded", "tmp_path"})
    return [test for test_name, test in vars(replay).items()
            if test_name.startswith("test_replay_conformance_") and test_name not in MANY_GAMES
            and set(inspect.signature(test).parameters) in wanted]


@pytest.mark.parametrize("test", replay_tests(), ids=lambda t: t.__name__.removeprefix("test_replay_conformance_"))
def test_catalogue_replay_conformance_on_the_second_sample_catalogue(
        second: AnySystem, test: Callable[..., None], tmp_path: Path) -> None:
    from replay.log.demo import record_demo_games
    from replay.log.service import GameService
    from replay.store.duckdb_store import DuckDBEventStore
    from replay.store.memory_store import MemoryEventStore
    from tests.conformance.test_replay_conformance import SEED, Stored

    made: dict[tuple[str, int], Stored] = {}

    def recorded(name: str, kind: str, count: int = 4) -> Stored:
        found = made.get((kind, count))
        if found is None:
            path = str(tmp_path / f"{kind}{count}.duckdb")
            store = DuckDBEventStore(path) if kind == "duckdb" else MemoryEventStore()
            service = GameService(store)
            ids = [g.game_id for g in record_demo_games(service, min(count, 4), seed=SEED, system=name)]
            found = made[(kind, count)] = Stored(service, ids)
        return found

    given: dict[str, Any] = {"name": second.name, "recorded": recorded, "kind": "memory", "tmp_path": tmp_path}
    test(**{p: given[p] for p in inspect.signature(test).parameters})
    games = recorded(second.name, "memory")
    assert all(games.events(g)[0].catalogue_id for g in games.ids)  # the games were on the second catalogue
