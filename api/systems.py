"""The registry of what each game system adds to the HTTP API and the CLI (``api.plugin.ApiSystem``).

Keyed by the engine system's name, in the style of ``engine.systems`` and ``replay.systems``: the built-in systems
register when this module is imported; tests add one for a while with ``registered`` (the registry is exactly as
it was afterwards). ``game_in`` joins the registered setup models into the body of ``POST /games``; the app calls
it when it is created, so register a system before ``create_app``.
"""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager
from typing import Annotated, Any, Union

from pydantic import ConfigDict, Field, RootModel

from api.plugin import COMMANDS, RESERVED_OPTIONS, ApiSystem, CommandLine, GameSetup, option_strings, setup_system
from engine.registry import Registry

DEFAULT_SYSTEM = "lords-of-war"  # the system a command uses when none is named (warlog's first)


class UnknownApiSystem(KeyError):
    """No API parts for a system of that name."""


_REGISTRY: Registry[ApiSystem] = Registry(
    UnknownApiSystem, "no API parts for game system {name!r} (known: {known})",
    "API parts for {name!r} are already registered",
)
PLUGINS: dict[str, ApiSystem] = _REGISTRY.parts  # name -> parts, in registration order


def register(plugin: ApiSystem, *, replace: bool = False) -> ApiSystem:
    """Add ``plugin`` under its ``name``. TypeError if it is not an ``ApiSystem`` (a setup model that is not a
    ``GameSetup`` keyed on the plugin's name, a CLI part that is not a ``CommandLine``); ValueError if the name is
    taken (unless ``replace``) or one of its options is another system's or a command's own."""
    if not isinstance(plugin, ApiSystem):
        raise TypeError(f"{plugin!r} does not implement api.plugin.ApiSystem")
    if not (isinstance(plugin.setup, type) and issubclass(plugin.setup, GameSetup)):
        raise TypeError(f"{plugin.name}: its setup model is not an api.plugin.GameSetup")
    if setup_system(plugin.setup) != plugin.name:
        raise TypeError(f"{plugin.name}: its setup model's system field must be Literal[{plugin.name!r}]")
    if not isinstance(plugin.cli, CommandLine):
        raise TypeError(f"{plugin.name}: its cli part does not implement api.plugin.CommandLine")
    return _REGISTRY.add(plugin, replace=replace, check=_check_options)


def _check_options(plugin: ApiSystem) -> None:
    """The options a system adds to each command are not another system's, nor the command's own."""
    for command in COMMANDS:
        taken = {s: "the command itself" for s in RESERVED_OPTIONS}
        for other in PLUGINS.values():
            if other.name != plugin.name:
                taken.update({s: other.name for s in option_strings(other.cli, command)})
        try:
            added = option_strings(plugin.cli, command)
        except argparse.ArgumentError as error:
            raise ValueError(f"{plugin.name}: its options for {command!r} clash: {error}") from None
        for option in added:
            if option in taken:
                raise ValueError(f"{plugin.name}: option {option} of {command!r} is already {taken[option]}'s")


def registered(*plugins: ApiSystem, replace: bool = False) -> AbstractContextManager[tuple[ApiSystem, ...]]:
    """Register ``plugins`` for a ``with`` block; the registry is exactly as it was afterwards."""
    return _REGISTRY.scoped(register, plugins, replace)


def get_plugin(name: str) -> ApiSystem:
    """The API parts of the system ``name``. Raises UnknownApiSystem (naming the known ones)."""
    return _REGISTRY.get(name)


def plugin_names() -> tuple[str, ...]:
    """The names of the systems with API parts, sorted."""
    return _REGISTRY.names()


def game_in() -> type[RootModel[Any]]:
    """The body of ``POST /games``: one branch per registered system, chosen by ``system`` (a discriminated
    union, so the OpenAPI document has each system's own fields and an error names them). Built anew on each
    call, from the registry as it is then."""
    models = tuple(PLUGINS[name].setup for name in plugin_names())
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


def _register_built_in() -> None:
    from api.art_of_war import PLUGIN as ART_OF_WAR
    from api.heroscape import PLUGIN as HEROSCAPE
    from api.l5r import PLUGIN as L5R
    from api.light_wars import PLUGIN as LIGHT_WARS
    from api.lords_of_war import PLUGIN as LORDS_OF_WAR

    register(LORDS_OF_WAR)
    register(LIGHT_WARS)
    register(L5R)
    register(ART_OF_WAR)
    register(HEROSCAPE)


_register_built_in()

__all__ = [
    "DEFAULT_SYSTEM", "PLUGINS", "UnknownApiSystem", "game_in", "get_plugin", "plugin_names", "register", "registered"
]
