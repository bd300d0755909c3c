"""The engine conformance suite (test_engine_conformance.py) run on each system's second sample catalogue (issue 30
item 7): Light Wars on Marsh Frontier, HeroScape on Cliffside Bay. Each system is registered, for each test, with
``sample_setup`` giving setups on its second catalogue (its armies, maps and variants in turn); every conformance
test that takes a system then runs on those games as it runs on the built-in data's.

Left out: the byte-identity test across processes (its child process plays the installed system's own samples)."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.catalogue import catalogue_id
from engine.system import seat_id
from engine.systems import SystemPlugin, get_system, plugin_of, registered
from tests.conformance import test_engine_conformance as conformance
from tests.engine.catalogue_given import sample_catalogue

AnySystem = Any

# per system: its fixture folder and catalogue, and the setups its samples cycle through (armies, variant)
SECOND: dict[str, tuple[str, str, tuple[tuple[str, str, dict[str, Any]], ...]]] = {
    "light-wars": ("light_wars", "marsh-frontier", (
        ("vanguard", "levy", {"size": "small"}),
        ("garrison", "vanguard", {"size": "small", "deployment": "screen", "map": "pass"}),
        ("levy", "garrison", {"size": "medium", "map": "pass"}),
        ("vanguard", "garrison", {"size": "small", "mode": "table", "map": "frontier"}),
        ("levy", "vanguard", {"size": "large", "deployment": "screen"}),
        ("garrison", "levy", {"size": "small", "deployment": "screen", "mode": "table", "map": "pass"}),
    )),
    "heroscape": ("heroscape", "cliffside-bay", (
        ("tideguard", "emberhost", {}),
        ("wildmoor", "tideguard", {"game": "basic"}),
        ("emberhost", "wildmoor", {"max_rounds": 8}),
        ("tideguard", "wildmoor", {"mode": "table"}),
    )),
}
ACROSS_PROCESSES = {"test_conformance_same_setup_and_bot_seeds_give_the_same_bytes"}


def on_second_catalogue(system: AnySystem) -> AnySystem:
    folder, sample, games = SECOND[system.name]
    document = sample_catalogue(folder, sample)

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
