"""The registry of game systems: ``replay`` and ``api`` look systems up here by name and use only
``engine.system.GameSystem``."""

from __future__ import annotations

from engine.system import GameSystem


def _systems() -> dict[str, GameSystem]:
    from engine.lords_of_war import SYSTEM as LORDS_OF_WAR

    return {LORDS_OF_WAR.name: LORDS_OF_WAR}


SYSTEMS: dict[str, GameSystem] = _systems()


class UnknownSystem(KeyError):
    """No game system by that name."""


def get_system(name: str) -> GameSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise UnknownSystem(f"unknown game system {name!r} (known: {', '.join(sorted(SYSTEMS))})") from None
