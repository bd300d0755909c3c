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

from engine.registry import scoped
from engine.system import AnySystem, GameSystem

SYSTEMS: dict[str, AnySystem] = {}  # name -> system; read it through get_system / system_names

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


class UnknownSystem(KeyError):
    """No game system by that name."""


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
    if name in SYSTEMS and not replace and SYSTEMS[name] is not system:
        raise ValueError(f"a game system named {name!r} is already registered")
    SYSTEMS[name] = system
    return system


def unregister(name: str) -> AnySystem:
    """Remove the system registered as ``name`` and return it. Raises UnknownSystem."""
    system = get_system(name)
    del SYSTEMS[name]
    return system


def registered(*systems: AnySystem, replace: bool = False) -> AbstractContextManager[tuple[AnySystem, ...]]:
    """Register ``systems`` for the duration of a ``with`` block; on leaving it (even by an exception) the
    registry is exactly as it was: the added systems removed, any replaced ones put back."""
    return scoped(SYSTEMS, register, systems, replace)


def get_system(name: str) -> AnySystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise UnknownSystem(f"unknown game system {name!r} (known: {', '.join(system_names())})") from None


def system_names() -> tuple[str, ...]:
    """The registered systems' names, sorted."""
    return tuple(sorted(SYSTEMS))


def _register_built_in() -> None:
    from engine.lords_of_war import SYSTEM as LORDS_OF_WAR

    register(LORDS_OF_WAR)


_register_built_in()

__all__ = ["SYSTEMS", "UnknownSystem", "get_system", "register", "registered", "system_names", "unregister"]
