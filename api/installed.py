"""The start-up step that fills the registry of game systems (``engine.systems``): ``load_systems`` registers the
plug-in each entry point of the ``warlog.systems`` group names (pyproject.toml:
``[project.entry-points."warlog.systems"]``), the built-in systems' as any other's, so a system distributed as a
package of its own registers by being installed.

The app factory (``api.app.create_app``), the ``warlog`` command line (``api.cli.main``) and the tests' conftest call
it; nothing fills the registry on import. It imports no layer's parts itself (each layer imports its parts when it
first reads them), so a command pays only for the layers it uses.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

from engine.systems import ENTRY_POINTS, LAYERS, BrokenPlugin, SystemPlugin, register

EXCLUDE_SETTING = "WARLOG_EXCLUDE_SYSTEMS"  # installed systems not to load: their names, separated by commas


def installed_plugins(
    *, exclude: Iterable[str] = (), names: Iterable[str] | None = None, found: Iterable[EntryPoint] | None = None,
) -> list[SystemPlugin]:
    """The plug-ins the ``warlog.systems`` entry points name (``found``: these entry points instead of the
    installed ones), but those in ``exclude`` and, given ``names``, only those: each a complete ``SystemPlugin``
    named as its entry point, else BrokenPlugin naming the entry point and its distribution."""
    skipped, wanted = set(exclude), None if names is None else set(names)
    out: list[SystemPlugin] = []
    for point in sorted(entry_points(group=ENTRY_POINTS) if found is None else found, key=lambda p: p.name):
        if point.name in skipped or (wanted is not None and point.name not in wanted):
            continue
        source = f"the entry point {point.name} = {point.value!r}" + (
            f" of {point.dist.name}" if point.dist is not None else "")
        try:
            plugin = point.load()
        except Exception as error:  # noqa: BLE001 - whatever a plug-in's import raises, said with where it is
            raise BrokenPlugin(f"{source} cannot be loaded: {type(error).__name__}: {error}") from error
        if not isinstance(plugin, SystemPlugin):
            raise BrokenPlugin(f"{source} names {plugin!r}, not an engine.systems.SystemPlugin")
        if plugin.name != point.name or not plugin.complete:
            raise BrokenPlugin(f"{source} names the plug-in {plugin.name!r} with parts in "
                               f"{', '.join(layer for layer in LAYERS if getattr(plugin, layer) is not None)}"
                               ": an installed system is named as its entry point and has engine, replay and api parts")
        out.append(plugin)
    return out


_LOADED: list[tuple[str, ...]] = []


def load_systems(*, exclude: Iterable[str] | None = None) -> tuple[str, ...]:
    """Register every installed system (``installed_plugins``), once per process: a later call changes nothing and
    returns what the first registered. ``exclude``: names not to load (None: the ``WARLOG_EXCLUDE_SYSTEMS``
    setting, names separated by commas). Returns the names registered."""
    if not _LOADED:
        if exclude is None:
            exclude = [name.strip() for name in os.environ.get(EXCLUDE_SETTING, "").split(",") if name.strip()]
        loaded = tuple(register(plugin).name for plugin in installed_plugins(exclude=exclude))
        _LOADED.append(loaded)
    return _LOADED[0]


__all__ = ["EXCLUDE_SETTING", "installed_plugins", "load_systems"]
