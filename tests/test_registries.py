"""One registry of game systems (engine.systems), filled at start-up from the ``warlog.systems`` entry points
(api.installed.load_systems); each layer reads its own part of each plug-in (engine, replay, API), checked when it
first reads it; a system installed as a package of its own (pebbles) is found like the built-ins."""

from __future__ import annotations

import argparse
import dataclasses
from importlib.metadata import EntryPoint
from typing import Any, Literal

import pytest
from pydantic import Field
from warlog_pebbles.rules import PEBBLES

from api import systems as api_systems
from api.installed import installed_plugins
from api.plugin import ApiParts, ApiSystem, CommandLine, GameSetup, ModelOptions, SeatPlayer
from engine import systems as engine_systems
from engine.systems import ENTRY_POINTS, BrokenPlugin, SystemPlugin, registered
from replay import systems as replay_systems
from tests.plugins.installed import pebbles_plugin, pebbles_registered

BUILT_IN = ("art-of-war", "heroscape", "l5r", "light-wars", "lords-of-war")


def _names() -> tuple[tuple[str, ...], ...]:
    return engine_systems.system_names(), replay_systems.plugin_names(), api_systems.plugin_names()


def test_the_engine_replay_and_api_layers_list_the_same_systems() -> None:
    engine, replay, api = _names()
    assert engine == replay == api == BUILT_IN


def test_every_installed_system_registers_through_its_entry_point_the_built_ins_too() -> None:
    found = installed_plugins()
    assert [p.name for p in found] == sorted([*BUILT_IN, "pebbles"])
    assert all(p.complete for p in found)
    assert [p.name for p in installed_plugins(exclude=["pebbles"])] == list(BUILT_IN)
    pebbles = pebbles_plugin()
    assert pebbles.part("engine") is PEBBLES
    assert pebbles.replay == "warlog_pebbles.replay_parts:PLUGIN" and pebbles.api == "warlog_pebbles.api_parts:PLUGIN"


def test_an_entry_point_that_does_not_name_a_whole_system_is_refused_with_where_it_is() -> None:
    def point(name: str, value: str) -> EntryPoint:
        return EntryPoint(name=name, value=value, group=ENTRY_POINTS)

    with pytest.raises(BrokenPlugin, match=r"the entry point dice = 'nowhere.at_all:PLUGIN' cannot be loaded: "
                                           r"ModuleNotFoundError"):
        installed_plugins(found=[point("dice", "nowhere.at_all:PLUGIN")])
    with pytest.raises(BrokenPlugin, match=r"names .* not an engine.systems.SystemPlugin"):
        installed_plugins(found=[point("dice", "engine.lords_of_war:SYSTEM")])
    with pytest.raises(BrokenPlugin, match="named as its entry point"):
        installed_plugins(found=[point("dice", "engine.lords_of_war.plugin:PLUGIN")])


def test_a_system_registered_in_every_layer_is_listed_by_each_and_gone_after() -> None:
    before = _names()
    with pebbles_registered():
        engine, replay, api = _names()
        assert "pebbles" in engine and engine == replay == api
    assert _names() == before


def test_a_layer_that_a_plugin_has_no_part_in_does_not_see_it() -> None:
    with registered(pebbles_plugin().part("engine")):  # type: ignore[arg-type]
        assert "pebbles" in engine_systems.system_names()
        assert "pebbles" not in replay_systems.plugin_names() and "pebbles" not in api_systems.plugin_names()


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_systems_api_parts_implement_the_protocol(name: str) -> None:
    plugin = api_systems.get_plugin(name)
    assert isinstance(plugin, ApiSystem) and plugin.name == name
    assert issubclass(plugin.setup, GameSetup)
    assert plugin.setup.model_fields["system"].annotation == Literal[name]  # type: ignore[valid-type]
    assert isinstance(plugin.cli, CommandLine)


class _Setup(GameSetup):
    system: Literal["pebbles"]
    players: list[SeatPlayer] = Field(min_length=2, max_length=2)


class _Clashing:
    """Options that another system (or the command) already has."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def add_options(self, parser: argparse._ActionsContainer, command: str) -> None:
        parser.add_argument(self.flag, default=argparse.SUPPRESS)

    def options(self, args: argparse.Namespace, command: str) -> dict[str, Any]:
        return {}


def test_api_parts_that_do_not_fit_are_refused_when_the_layer_reads_them() -> None:
    good = ApiParts(name="pebbles", setup=_Setup, cli=ModelOptions("pebbles", _Setup))
    cases = (
        (ApiParts(name="pebbles", setup=SeatPlayer, cli=good.cli), "not an api.plugin.GameSetup"),  # type: ignore[arg-type]
        (ApiParts(name="pebbles", setup=_Setup, cli=object()), "cli part does not implement"),  # type: ignore[arg-type]
        (ApiParts(name="pebbles", setup=_Setup, cli=_Clashing("--army")),
         "--army of 'tournament register' is already lords-of-war's"),
        (ApiParts(name="pebbles", setup=_Setup, cli=_Clashing("--rounds")),
         "--rounds of 'tournament create' is already the command itself's"),
        (ApiParts(name="dice", setup=_Setup, cli=good.cli), "its API parts are named 'dice'"),
    )
    for parts, message in cases:
        with pebbles_registered(api=parts), pytest.raises(BrokenPlugin, match=message):
            api_systems.get_plugin("pebbles")
    with pebbles_registered(api=good):
        assert api_systems.get_plugin("pebbles") is good
        assert "pebbles" in api_systems.game_in().model_json_schema()["discriminator"]["mapping"]
    assert "pebbles" not in api_systems.plugin_names()
    with pytest.raises(api_systems.UnknownApiSystem, match="known: .*lords-of-war"):
        api_systems.get_plugin("pebbles")


def test_each_layer_names_what_it_lacks_in_its_own_words_and_a_taken_name_is_refused() -> None:
    cases = (
        (engine_systems.get_system, engine_systems.UnknownSystem, "unknown game system 'chess' (known: {known})"),
        (replay_systems.get_plugin, replay_systems.UnknownReplaySystem,
         "no replay parts for game system 'chess' (known: {known})"),
        (api_systems.get_plugin, api_systems.UnknownApiSystem, "no API parts for game system 'chess' (known: {known})"),
    )
    for lookup, unknown, message in cases:
        with pytest.raises(unknown) as raised:
            lookup("chess")
        assert isinstance(raised.value, KeyError) and raised.value.args == (message.format(known=", ".join(BUILT_IN)),)
    lords = engine_systems.plugin_of("lords-of-war")
    copy = dataclasses.replace(lords)
    with pytest.raises(ValueError, match="a game system named 'lords-of-war' is already registered"):
        engine_systems.register(copy)
    assert engine_systems.register(lords) is lords  # the same plug-in again is no conflict
    assert isinstance(lords, SystemPlugin) and engine_systems.plugin_of("lords-of-war") is lords
