"""What each game system adds to the HTTP API and the CLI (``api.plugin.ApiSystem``): the ``api`` part of each plug-in
of the one registry (``engine.systems``, filled by ``api.installed.load_systems``), imported and checked when this
layer first reads them. ``game_in`` joins the registered setup models into the body of ``POST /games``; the app
calls it when it is created.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Union

from pydantic import ConfigDict, Field, RootModel

from api.plugin import COMMANDS, RESERVED_OPTIONS, ApiSystem, CommandLine, GameSetup, option_strings, setup_system
from engine.systems import DEFAULT_SYSTEM, BrokenPlugin, Layer


class UnknownApiSystem(KeyError):
    """No API parts for a system of that name."""


def check_parts(part: object, name: str, earlier: Mapping[str, ApiSystem] | None = None) -> ApiSystem:
    """``part`` as the API part of the system ``name``: BrokenPlugin if it is not an ``ApiSystem`` (a setup model
    that is not a ``GameSetup`` keyed on the system's name, a CLI part that is not a ``CommandLine``), or one of its
    options is an ``earlier`` system's or a command's own."""
    if not isinstance(part, ApiSystem):
        raise BrokenPlugin(f"{name}: {part!r} does not implement api.plugin.ApiSystem")
    if part.name != name:
        raise BrokenPlugin(f"{name}: its API parts are named {part.name!r}")
    if not (isinstance(part.setup, type) and issubclass(part.setup, GameSetup)):
        raise BrokenPlugin(f"{name}: its setup model is not an api.plugin.GameSetup")
    if setup_system(part.setup) != name:
        raise BrokenPlugin(f"{name}: its setup model's system field must be Literal[{name!r}]")
    if not isinstance(part.cli, CommandLine):
        raise BrokenPlugin(f"{name}: its cli part does not implement api.plugin.CommandLine")
    _check_options(part, (earlier or {}).values())
    return part


def _check_options(part: ApiSystem, others: Iterable[ApiSystem]) -> None:
    """The options a system adds to each command are not another system's, nor the command's own."""
    others = tuple(others)
    for command in COMMANDS:
        taken = {s: "the command itself" for s in RESERVED_OPTIONS}
        for other in others:
            if other.name != part.name:
                taken.update({s: other.name for s in option_strings(other.cli, command)})
        try:
            added = option_strings(part.cli, command)
        except argparse.ArgumentError as error:
            raise BrokenPlugin(f"{part.name}: its options for {command!r} clash: {error}") from None
        for option in added:
            if option in taken:
                raise BrokenPlugin(f"{part.name}: option {option} of {command!r} is already {taken[option]}'s")


_LAYER: Layer[ApiSystem] = Layer("api", check_parts, UnknownApiSystem,
                                 "no API parts for game system {name!r} (known: {known})")
find_plugin = _LAYER.find  # the API parts of the system ``name``, or None
get_plugin = _LAYER.get  # the API parts of the system ``name``; UnknownApiSystem naming the known ones
plugins = _LAYER.parts  # the API parts of every registered system that has them, in name order
plugin_names = _LAYER.names  # the names of the systems with API parts, sorted


def game_in() -> type[RootModel[Any]]:
    """The body of ``POST /games``: one branch per registered system, chosen by ``system`` (a discriminated
    union, so the OpenAPI document has each system's own fields and an error names them). Built anew on each
    call, from the registry as it is then."""
    models = tuple(part.setup for part in plugins())
    if not models:
        raise RuntimeError("no game system has API parts registered (api.systems)")
    union = Annotated[Union[models], Field(discriminator="system")]  # type: ignore[valid-type]  # noqa: UP007 - a Union of a runtime tuple
    examples = [example for model in models for example in _examples(model)]
    config = ConfigDict(json_schema_extra={"examples": examples} if examples else None)
    return type(  # a fresh class per app: its schema is the registry's at that moment
        "GameIn",
        (RootModel[union],),
        {"model_config": config, "__doc__": "A game's setup: the fields of its system (the `system` key chooses).",
         "__module__": __name__},
    )


def _examples(model: type[GameSetup]) -> list[Any]:
    extra = model.model_config.get("json_schema_extra")
    examples = extra.get("examples") if isinstance(extra, dict) else None
    return list(examples) if isinstance(examples, list) else []


__all__ = ["DEFAULT_SYSTEM", "UnknownApiSystem", "check_parts", "find_plugin", "game_in", "get_plugin", "plugin_names",
           "plugins"]
