"""The registry of game systems: one table, system name -> ``SystemPlugin`` (the system's part in each layer),
read by every layer. Nothing fills it on import: the start-up step ``api.installed.load_systems()`` (called by the
app factory, the ``warlog`` command line and the tests' conftest) registers the plug-ins the ``warlog.systems``
entry points name, the built-in systems' as any other's.

Each layer reads its own part of each plug-in, typed and checked by that layer, so this module knows nothing above
the engine: the engine here (``get_system``), the replay parts in ``replay.systems``, the API parts in
``api.systems``. A part is given as the object or as where it is (``"module:attribute"``), imported the first time
a layer asks, so a command loads only the layers it uses. What a layer derives from the registered plug-ins (its
checked parts, the statistics catalogue) is made once per state of the table (``derived``).

Tests add a system for a while with ``registered`` (a context manager; a bare ``GameSystem`` is a plug-in with only
an engine part) and the table is exactly as it was after, whatever happened inside::

    with registered(PEBBLES):
        assert get_system("pebbles") is PEBBLES
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from engine.system import AnySystem, GameSystem

T = TypeVar("T")

ENTRY_POINTS = "warlog.systems"  # the entry-point group in which an installed system names its plug-in
LAYERS = ("engine", "replay", "api")
# The system a request or a command that names none means (docs/api.md, docs/cli.md): warlog's first. Its one
# definition; where it is not installed, such a request is answered as one naming any unknown system.
DEFAULT_SYSTEM = "lords-of-war"

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


class UnknownSystem(KeyError):
    """No game system by that name."""


class BrokenPlugin(Exception):
    """A plug-in whose part cannot be imported, or is not what its layer takes."""


@dataclass(frozen=True)
class SystemPlugin:
    """A game system as installed: its name and its part in each layer (``engine``: an ``engine.system.GameSystem``;
    ``replay``: a ``replay.plugin.ReplaySystem``; ``api``: an ``api.plugin.ApiSystem``), each given as the object or
    as ``"module:attribute"``. An installed system has all three; a system registered by a test may have fewer
    (None: the layer does not see it). The entry points of ``warlog.systems`` name one of these each."""

    name: str
    engine: object
    replay: object = None
    api: object = None
    _loaded: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def part(self, layer: str) -> object | None:
        """The system's part in ``layer``: the object given, or the one a ``"module:attribute"`` names (imported the
        first time). BrokenPlugin when it cannot be imported."""
        given: object = getattr(self, layer)
        if not isinstance(given, str):
            return given
        if layer not in self._loaded:
            if _REFERENCE.fullmatch(given) is None:
                raise BrokenPlugin(f"{self.name}: its {layer} part {given!r} is not a \"module:attribute\"")
            module, _, attribute = given.partition(":")
            try:
                self._loaded[layer] = getattr(importlib.import_module(module), attribute)
            except (ImportError, AttributeError) as error:
                raise BrokenPlugin(f"{self.name}: its {layer} part {given} cannot be imported: {error}") from error
        return self._loaded[layer]

    @property
    def complete(self) -> bool:
        """Whether it has a part in every layer (what an installed system has)."""
        return all(getattr(self, layer) is not None for layer in LAYERS)


def check_engine(system: object, name: str) -> AnySystem:
    """``system`` as the engine part of the plug-in ``name``: BrokenPlugin if it does not implement ``GameSystem`` or
    its name is not the plug-in's."""
    if not isinstance(system, GameSystem):
        raise BrokenPlugin(f"{name}: {system!r} does not implement engine.system.GameSystem")
    if system.name != name:
        raise BrokenPlugin(f"{name}: its engine part is named {system.name!r}")
    return system


# -- the table ----------------------------------------------------------------------------------------------------

_PLUGINS: dict[str, SystemPlugin] = {}
_DERIVED: dict[str, Any] = {}  # what the layers derived from the table as it is (emptied on every change)
_STATE = [0]  # bumped on every change of the table
_LOCK = threading.Lock()


def _changed() -> None:
    _STATE[0] += 1
    _DERIVED.clear()


def _plugin(item: SystemPlugin | AnySystem) -> SystemPlugin:
    if isinstance(item, SystemPlugin):
        return item
    check_engine(item, str(getattr(item, "name", item)))
    return SystemPlugin(name=item.name, engine=item)


def register(item: SystemPlugin | AnySystem, *, replace: bool = False) -> SystemPlugin:
    """Add a plug-in (or a bare engine system: a plug-in with only that part) under its name: lower-case words
    joined by hyphens (ValueError otherwise), not taken by another plug-in (ValueError, unless ``replace``; the same
    plug-in again is no conflict). An engine part given as an object is checked now (BrokenPlugin); the other
    parts when their layer first reads them. Returns what was registered."""
    plugin = _plugin(item)
    if _NAME.fullmatch(plugin.name) is None:
        raise ValueError(
            f"a game system's name is lower-case words joined by hyphens (like lords-of-war), not {plugin.name!r}"
        )
    if not isinstance(plugin.engine, str):
        check_engine(plugin.engine, plugin.name)
    with _LOCK:
        held = _PLUGINS.get(plugin.name)
        if held is not None and (held is plugin or held.engine is item):
            return held
        if held is not None and not replace:
            raise ValueError(f"a game system named {plugin.name!r} is already registered")
        _PLUGINS[plugin.name] = plugin
        _changed()
    return plugin


def unregister(name: str) -> SystemPlugin:
    """Remove the plug-in registered as ``name`` and return it. Raises UnknownSystem."""
    with _LOCK:
        plugin = plugin_of(name)
        del _PLUGINS[name]
        _changed()
    return plugin


@contextmanager
def registered(*items: SystemPlugin | AnySystem, replace: bool = False) -> Iterator[tuple[SystemPlugin, ...]]:
    """Register plug-ins (or bare engine systems) for the duration of a ``with`` block; on leaving it (even by an
    exception) the table is exactly as it was: the added ones removed, any replaced ones put back."""
    before = dict(_PLUGINS)
    try:
        yield tuple(register(item, replace=replace) for item in items)
    finally:
        with _LOCK:
            _PLUGINS.clear()
            _PLUGINS.update(before)
            _changed()


def plugin_of(name: str) -> SystemPlugin:
    """The plug-in registered as ``name``. Raises UnknownSystem (naming the known ones)."""
    try:
        return _PLUGINS[name]
    except KeyError:
        raise UnknownSystem(f"unknown game system {name!r} (known: {', '.join(system_names())})") from None


def plugins() -> tuple[SystemPlugin, ...]:
    """Every registered plug-in, in name order."""
    return tuple(_PLUGINS[name] for name in sorted(_PLUGINS))


def system_names() -> tuple[str, ...]:
    """The registered systems' names, sorted."""
    return tuple(sorted(_PLUGINS))


def derived(key: str, make: Callable[[], T]) -> T:
    """``make()``, made once per state of the table (again after any change): what a layer derives from the
    registered plug-ins, e.g. its parts, checked (``layer_parts``). An exception is raised again on the next call."""
    if key in _DERIVED:
        return cast(T, _DERIVED[key])
    state = _STATE[0]
    value = make()
    with _LOCK:
        if _STATE[0] == state:  # the table did not change meanwhile: keep it
            _DERIVED[key] = value
    return value


def layer_parts(layer: str, check: Callable[[object, str, Mapping[str, T]], T]) -> Mapping[str, T]:
    """The registered plug-ins' parts in ``layer``, by name (those that have one), each imported and checked once per
    state of the table: ``check(part, name, earlier)`` returns the part typed, or raises (BrokenPlugin, TypeError,
    ValueError) for a part that is not what the layer takes or that clashes with an ``earlier`` one (the parts
    checked before it, in name order)."""

    def make() -> dict[str, T]:
        parts: dict[str, T] = {}
        for plugin in plugins():
            part = plugin.part(layer)
            if part is not None:
                parts[plugin.name] = check(part, plugin.name, parts)
        return parts

    return derived(layer, make)


class Layer(Generic[T]):
    """One layer's reading of the registry: its part of each plug-in, checked (``layer_parts``), found by name.
    ``unknown`` is the layer's KeyError for a name without a part, ``missing`` its message (``{name!r}``, and
    ``{known}``: the names with a part, joined by commas)."""

    def __init__(self, layer: str, check: Callable[[object, str, Mapping[str, T]], T], unknown: type[KeyError],
                 missing: str) -> None:
        self.layer, self._check, self._unknown, self._missing = layer, check, unknown, missing

    def by_name(self) -> Mapping[str, T]:
        """The parts by system name, in name order."""
        return layer_parts(self.layer, self._check)

    def find(self, name: str) -> T | None:
        """The part of the system ``name``, or None when no registered system of that name has one."""
        return self.by_name().get(name)

    def get(self, name: str) -> T:
        """The part of the system ``name``; the layer's ``unknown`` error (naming the known ones) when there is none."""
        parts = self.by_name()
        if name not in parts:
            raise self._unknown(self._missing.format(name=name, known=", ".join(parts)))
        return parts[name]

    def parts(self) -> tuple[T, ...]:
        """Every registered system's part, in name order (those that have one)."""
        return tuple(self.by_name().values())

    def names(self) -> tuple[str, ...]:
        """The names of the systems with a part, sorted."""
        return tuple(self.by_name())


def _engine_part(part: object, name: str, earlier: Mapping[str, AnySystem]) -> AnySystem:
    return check_engine(part, name)


ENGINE: Layer[AnySystem] = Layer("engine", _engine_part, UnknownSystem, "unknown game system {name!r} (known: {known})")


def get_system(name: str) -> AnySystem:
    """The engine part of the system registered as ``name``. Raises UnknownSystem (naming the known ones)."""
    return ENGINE.get(name)


__all__ = [
    "DEFAULT_SYSTEM",
    "ENTRY_POINTS",
    "LAYERS",
    "BrokenPlugin",
    "Layer",
    "SystemPlugin",
    "UnknownSystem",
    "check_engine",
    "derived",
    "get_system",
    "layer_parts",
    "plugin_of",
    "plugins",
    "register",
    "registered",
    "system_names",
    "unregister",
]
