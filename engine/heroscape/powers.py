"""HeroScape powers the digest names (§7) and the table-mode line-of-sight ruling (R1). Pure; dice come in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

BERSERKER_TARGET = 15


def berserker_charge(roll: Callable[[], int]) -> tuple[int, tuple[int, ...]]:
    """§7 Berserker Charge: after moving roll the d20; on 15 or more the squad moves again; repeatable.

    Returns how many extra moves were won and every roll made (to record as events).
    """
    rolls: list[int] = []
    while True:
        value = roll()
        if not 1 <= value <= 20:
            raise ValueError(f"a d20 shows 1-20, not {value}")
        rolls.append(value)
        if value < BERSERKER_TARGET:
            return len(rolls) - 1, tuple(rolls)


@dataclass(frozen=True, slots=True)
class SightRuling:
    """R1 in table mode: the referee's call decides, the engine's own answer is kept beside it."""

    engine: bool
    referee: bool | None = None

    @property
    def clear(self) -> bool:
        return self.engine if self.referee is None else self.referee

    @property
    def disputed(self) -> bool:
        return self.referee is not None and self.referee != self.engine
