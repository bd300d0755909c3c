"""The registry of what each game system adds downstream of its engine (``replay.plugin.ReplaySystem``).

Keyed by the engine system's name; the shared layers look a system's parts up here and use only the protocols.
The built-in systems register when this module is imported; tests add one for a while with ``registered``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from replay.plugin import Explanations, RecordSyntax, ReplaySystem, TerminalPicture, Views

PLUGINS: dict[str, ReplaySystem] = {}


class UnknownReplaySystem(KeyError):
    """No replay parts for a system of that name."""


def register(plugin: ReplaySystem, *, replace: bool = False) -> ReplaySystem:
    """Add ``plugin`` under its ``name``. TypeError if it is not a ``ReplaySystem``; ValueError if the name is
    taken (unless ``replace``)."""
    if not isinstance(plugin, ReplaySystem):
        raise TypeError(f"{plugin!r} does not implement replay.plugin.ReplaySystem")
    parts = {"views": (plugin.views, Views), "explanations": (plugin.explanations, Explanations),
             "records": (plugin.records, RecordSyntax), "terminal": (plugin.terminal, TerminalPicture)}
    for part, (implementation, protocol) in parts.items():
        if not isinstance(implementation, protocol):
            raise TypeError(f"{plugin.name}: its {part} part does not implement replay.plugin.{protocol.__name__}")
    if plugin.name in PLUGINS and not replace and PLUGINS[plugin.name] is not plugin:
        raise ValueError(f"replay parts for {plugin.name!r} are already registered")
    PLUGINS[plugin.name] = plugin
    return plugin


@contextmanager
def registered(*plugins: ReplaySystem, replace: bool = False) -> Iterator[tuple[ReplaySystem, ...]]:
    """Register ``plugins`` for a ``with`` block; the registry is exactly as it was afterwards."""
    before = dict(PLUGINS)
    try:
        for plugin in plugins:
            register(plugin, replace=replace)
        yield plugins
    finally:
        PLUGINS.clear()
        PLUGINS.update(before)


def get_plugin(name: str) -> ReplaySystem:
    try:
        return PLUGINS[name]
    except KeyError:
        known = ", ".join(plugin_names())
        raise UnknownReplaySystem(f"no replay parts for game system {name!r} (known: {known})") from None


def plugin_names() -> tuple[str, ...]:
    return tuple(sorted(PLUGINS))


def _register_built_in() -> None:
    from replay.lords_of_war import PLUGIN as LORDS_OF_WAR

    register(LORDS_OF_WAR)


_register_built_in()
