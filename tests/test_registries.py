"""Every layer's registry (engine, replay, API) lists the same game systems; a system registered from the tests in
all three (pebbles) keeps them equal; the API registry refuses parts that do not fit."""

from __future__ import annotations

import argparse
import dataclasses
from contextlib import nullcontext
from typing import Any, Literal

import pytest
from pydantic import Field

from api import systems as api_systems
from api.plugin import ApiParts, ApiSystem, CommandLine, GameSetup, ModelOptions, SeatPlayer
from engine import systems as engine_systems
from replay import systems as replay_systems
from tests.api.pebbles_parts import pebbles_registered


def _names() -> tuple[list[str], list[str], list[str]]:
    return sorted(engine_systems.SYSTEMS), sorted(replay_systems.PLUGINS), sorted(api_systems.PLUGINS)


def test_the_engine_replay_and_api_registries_list_the_same_systems() -> None:
    engine, replay, api = _names()
    assert engine == replay == api and engine


def test_a_system_registered_in_every_layer_is_listed_by_each_and_gone_after() -> None:
    before = _names()
    with pebbles_registered():
        engine, replay, api = _names()
        assert "pebbles" in engine and engine == replay == api
    assert _names() == before


@pytest.mark.parametrize("name", sorted(api_systems.PLUGINS))
def test_each_systems_api_parts_implement_the_protocol(name: str) -> None:
    plugin = api_systems.get_plugin(name)
    assert isinstance(plugin, ApiSystem) and plugin.name == name
    assert issubclass(plugin.setup, GameSetup)
    assert plugin.setup.model_fields["system"].annotation == Literal[name]  # type: ignore[valid-type]
    assert isinstance(plugin.cli, CommandLine)


class _Setup(GameSetup):
    system: Literal["dice"]
    players: list[SeatPlayer] = Field(min_length=2, max_length=2)


class _Clashing:
    """Options that another system (or the command) already has."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def add_options(self, parser: argparse._ActionsContainer, command: str) -> None:
        parser.add_argument(self.flag, default=argparse.SUPPRESS)

    def options(self, args: argparse.Namespace, command: str) -> dict[str, Any]:
        return {}


def test_register_refuses_what_does_not_fit() -> None:
    good = ApiParts(name="dice", setup=_Setup, cli=ModelOptions("dice", _Setup))
    with pytest.raises(TypeError, match="system field must be Literal"):
        api_systems.register(ApiParts(name="dominoes", setup=_Setup, cli=good.cli))
    with pytest.raises(TypeError, match="not an api.plugin.GameSetup"):
        api_systems.register(ApiParts(name="dice", setup=SeatPlayer, cli=good.cli))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cli part does not implement"):
        api_systems.register(ApiParts(name="dice", setup=_Setup, cli=object()))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="--army of 'tournament register' is already lords-of-war's"):
        api_systems.register(ApiParts(name="dice", setup=_Setup, cli=_Clashing("--army")))
    with pytest.raises(ValueError, match="--rounds of 'tournament create' is already the command itself's"):
        api_systems.register(ApiParts(name="dice", setup=_Setup, cli=_Clashing("--rounds")))
    lords = api_systems.get_plugin("lords-of-war")
    with pytest.raises(ValueError, match="already registered"):
        api_systems.register(ApiParts(name="lords-of-war", setup=lords.setup, cli=lords.cli))
    with api_systems.registered(good):
        assert api_systems.get_plugin("dice") is good
        assert "dice" in api_systems.game_in().model_json_schema()["discriminator"]["mapping"]
    assert "dice" not in api_systems.PLUGINS
    with pytest.raises(api_systems.UnknownApiSystem, match="known: .*lords-of-war"):
        api_systems.get_plugin("dice")


def test_each_registry_names_what_it_lacks_and_what_is_taken_in_its_own_words() -> None:
    """The three registries share their lookup and listing (engine.registry.Registry); each keeps its own error
    class and messages."""
    cases = (
        (engine_systems.get_system, engine_systems.UnknownSystem, "unknown game system 'chess' (known: {known})"),
        (replay_systems.get_plugin, replay_systems.UnknownReplaySystem,
         "no replay parts for game system 'chess' (known: {known})"),
        (api_systems.get_plugin, api_systems.UnknownApiSystem, "no API parts for game system 'chess' (known: {known})"),
    )
    built_in = engine_systems.system_names()  # the registered systems, whichever they are
    for names in (built_in, tuple(sorted({*built_in, "pebbles"}))):
        known = ", ".join(names)
        with pebbles_registered() if "pebbles" in names else nullcontext():
            for lookup, unknown, message in cases:
                with pytest.raises(unknown) as raised:
                    lookup("chess")
                assert isinstance(raised.value, KeyError) and raised.value.args == (message.format(known=known),)
            listed = (engine_systems.system_names(), replay_systems.plugin_names(), api_systems.plugin_names())
            assert listed == (names,) * 3
            assert [lookup(name).name for lookup, _, _ in cases for name in listed[0]] == list(listed[0]) * 3

    lords = (engine_systems.get_system("lords-of-war"), replay_systems.get_plugin("lords-of-war"),
             api_systems.get_plugin("lords-of-war"))
    copies = (
        type("Copy", (type(lords[0]),), {})(),
        dataclasses.replace(lords[1]),
        dataclasses.replace(lords[2]),
    )
    taken = ("a game system named 'lords-of-war' is already registered",
             "replay parts for 'lords-of-war' are already registered",
             "API parts for 'lords-of-war' are already registered")
    registers = (engine_systems.register, replay_systems.register, api_systems.register)
    for register, copy, original, message in zip(registers, copies, lords, taken, strict=True):
        assert copy is not original
        with pytest.raises(ValueError) as refused:
            register(copy)
        assert str(refused.value) == message
        assert register(original) is original  # the same object again is no conflict
    assert (engine_systems.get_system("lords-of-war"), replay_systems.get_plugin("lords-of-war"),
            api_systems.get_plugin("lords-of-war")) == lords
