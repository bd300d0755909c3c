"""The registry of game systems: ``replay`` and ``api`` look systems up here by name and use only
``engine.system.GameSystem``.

The built-in systems are registered when this module is imported. Tests add a system of their own for a while
with ``registered`` (a context manager; as a fixture: ``with registered(MY_SYSTEM): yield``) and it is gone after,
whatever happened inside::

    with registered(PEBBLES):
        assert get_system("pebbles") is PEBBLES
"""

from __future__ import annotations

import re
from contextlib import AbstractContextManager

from engine.registry import Registry
from engine.system import AnySystem, GameSystem

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


class UnknownSystem(KeyError):
    """No game system by that name."""


_REGISTRY: Registry[AnySystem] = Registry(
    UnknownSystem, "unknown game system {name!r} (known: {known})", "a game system named {name!r} is already registered"
)
SYSTEMS: dict[str, AnySystem] = _REGISTRY.parts  # name -> system; read it through get_system / system_names


def register(system: AnySystem, *, replace: bool = False) -> AnySystem:
    """Add ``system`` under its ``name`` (lower-case words joined by hyphens, the contract's system names).
    Raises TypeError for an object that does not implement ``GameSystem``, ValueError for a bad name or a name
    already taken (unless ``replace``)."""
    if not isinstance(system, GameSystem):
        raise TypeError(f"{system!r} does not implement engine.system.GameSystem")
    name = system.name
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise ValueError(
            f"a game system's name is lower-case words joined by hyphens (like lords-of-war), not {name!r}"
        )
    return _REGISTRY.add(system, replace=replace)


def unregister(name: str) -> AnySystem:
    """Remove the system registered as ``name`` and return it. Raises UnknownSystem."""
    return _REGISTRY.remove(name)


def registered(*systems: AnySystem, replace: bool = False) -> AbstractContextManager[tuple[AnySystem, ...]]:
    """Register ``systems`` for the duration of a ``with`` block; on leaving it (even by an exception) the
    registry is exactly as it was: the added systems removed, any replaced ones put back."""
    return _REGISTRY.scoped(register, systems, replace)


def get_system(name: str) -> AnySystem:
    """The system registered as ``name``. Raises UnknownSystem (naming the known ones)."""
    return _REGISTRY.get(name)


def system_names() -> tuple[str, ...]:
    """The registered systems' names, sorted."""
    return _REGISTRY.names()


def _register_built_in() -> None:
    from engine.art_of_war import SYSTEM as ART_OF_WAR
    from engine.heroscape import SYSTEM as HEROSCAPE
    from engine.l5r import SYSTEM as L5R
    from engine.light_wars import SYSTEM as LIGHT_WARS
    from engine.lords_of_war import SYSTEM as LORDS_OF_WAR

    register(LORDS_OF_WAR)
    register(LIGHT_WARS)
    register(L5R)
    register(ART_OF_WAR)
    register(HEROSCAPE)


_register_built_in()

__all__ = ["SYSTEMS", "UnknownSystem", "get_system", "register", "registered", "system_names", "unregister"]
