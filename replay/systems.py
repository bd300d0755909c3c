"""The registry of what each game system adds downstream of its engine (``replay.plugin.ReplaySystem``).

Keyed by the engine system's name; the shared layers look a system's parts up here and use only the protocols.
The built-in systems register when this module is imported; tests add one for a while with ``registered``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from engine.registry import Registry
from replay.plugin import Analytics, Explanations, Labels, RecordSyntax, ReplaySystem, TerminalPicture, Views


class UnknownReplaySystem(KeyError):
    """No replay parts for a system of that name."""


_REGISTRY: Registry[ReplaySystem] = Registry(
    UnknownReplaySystem, "no replay parts for game system {name!r} (known: {known})",
    "replay parts for {name!r} are already registered",
)
PLUGINS: dict[str, ReplaySystem] = _REGISTRY.parts  # name -> parts, in registration order


def register(plugin: ReplaySystem, *, replace: bool = False) -> ReplaySystem:
    """Add ``plugin`` under its ``name``. TypeError if it is not a ``ReplaySystem``; ValueError if the name is
    taken (unless ``replace``)."""
    if not isinstance(plugin, ReplaySystem):
        raise TypeError(f"{plugin!r} does not implement replay.plugin.ReplaySystem")
    parts = {"views": (plugin.views, Views), "explanations": (plugin.explanations, Explanations),
             "records": (plugin.records, RecordSyntax), "terminal": (plugin.terminal, TerminalPicture)}
    optional = {"labels": (plugin.labels, Labels), "analytics": (plugin.analytics, Analytics)}
    parts |= {part: value for part, value in optional.items() if value[0] is not None}
    for part, (implementation, protocol) in parts.items():
        if not isinstance(implementation, protocol):
            raise TypeError(f"{plugin.name}: its {part} part does not implement replay.plugin.{protocol.__name__}")
    return _REGISTRY.add(plugin, replace=replace, check=_check_statistics)


def _check_statistics(plugin: ReplaySystem) -> None:
    """A system's statistics name itself as their system and take names and paths no other statistic has."""
    if plugin.analytics is None:
        return
    from replay.analytics.catalogue import CORE

    taken = {(s.name, s.path): s.system for s in CORE}
    for other in PLUGINS.values():
        if other.name != plugin.name and other.analytics is not None:
            taken |= {(s.name, s.path): s.system for s in other.analytics.statistics}
    names = {name: owner for (name, _), owner in taken.items()}
    paths = {path: owner for (_, path), owner in taken.items()}
    for statistic in plugin.analytics.statistics:
        if statistic.system != plugin.name:
            raise ValueError(f"{plugin.name}: its statistic {statistic.name!r} says it is {statistic.system!r}'s")
        for key, seen in ((statistic.name, names), (statistic.path, paths)):
            if key in seen:
                raise ValueError(f"{plugin.name}: the statistic {key!r} is taken (by {seen[key] or 'the core'})")
        names[statistic.name] = paths[statistic.path] = plugin.name


def registered(*plugins: ReplaySystem, replace: bool = False) -> AbstractContextManager[tuple[ReplaySystem, ...]]:
    """Register ``plugins`` for a ``with`` block; the registry is exactly as it was afterwards."""
    return _REGISTRY.scoped(register, plugins, replace)


def get_plugin(name: str) -> ReplaySystem:
    """The replay parts of the system ``name``. Raises UnknownReplaySystem (naming the known ones)."""
    return _REGISTRY.get(name)


def plugin_names() -> tuple[str, ...]:
    """The names of the systems with replay parts, sorted."""
    return _REGISTRY.names()


def default_system() -> str:
    """The system a request or command that names none means: the first registered (the built-in Lords of War,
    whose statistics were the only ones before there were several systems)."""
    if not PLUGINS:
        raise UnknownReplaySystem("no game system is registered")
    return next(iter(PLUGINS))


def _register_built_in() -> None:
    from replay.art_of_war import PLUGIN as ART_OF_WAR
    from replay.heroscape import PLUGIN as HEROSCAPE
    from replay.l5r import PLUGIN as L5R
    from replay.light_wars import PLUGIN as LIGHT_WARS
    from replay.lords_of_war import PLUGIN as LORDS_OF_WAR

    register(LORDS_OF_WAR)
    register(LIGHT_WARS)
    register(L5R)
    register(ART_OF_WAR)
    register(HEROSCAPE)


_register_built_in()
