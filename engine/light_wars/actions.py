"""Light Wars actions: imperative, tagged by ``type``, each naming the seat that acts (``player``).

Units on the map are named by their square (``"C3"``), as at the table; units still to deploy by their id (``"I2"``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import RuleError
from events.light_wars import Placement


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Roll(Action, frozen=True, tag="roll"):
    """Table mode: the die the awaited seat rolled (1 to 6), for a roll-off or for the attack being resolved."""

    value: int


class Deploy(Action, frozen=True, tag="deploy"):
    """Alternate deployment (§2.3): one unit onto a square of one's own territory, with its facing."""

    unit: str
    square: str
    facing: str


class DeployAll(Action, frozen=True, tag="deploy_all"):
    """Screened deployment (§2.3): every unit at once, hidden from the opponent until both have deployed."""

    placements: tuple[Placement, ...]


class ChooseFirst(Action, frozen=True, tag="choose_first"):
    """§2.4: the deciding player names the first player."""

    first: str


class Tactics(Action, frozen=True, tag="tactics"):
    """§3.1: the tactic tiles used this turn (empty: none), paid in bases from the stock."""

    tiles: tuple[str, ...] = ()


class Move(Action, frozen=True, tag="move"):
    """§3.2: the unit on ``square`` moves to another square ``to`` (orthogonal steps, never through or onto a unit)
    and ends facing ``facing`` (turning is free)."""

    square: str
    to: str
    facing: str


class Turn(Action, frozen=True, tag="turn"):
    """R6: the unit on ``square`` turns to ``facing``, at any point of its action (before or after its move, before
    it attacks); it is no move and does not end the action."""

    square: str
    facing: str


class Wait(Action, frozen=True, tag="wait"):
    """§3.2: the unit on ``square`` ends its action; it may turn (R3)."""

    square: str
    facing: str | None = None


class Attack(Action, frozen=True, tag="attack"):
    """§4: the units on ``attackers`` attack the enemy unit on ``target`` together."""

    target: str
    attackers: tuple[str, ...]


class Concede(Action, frozen=True, tag="concede"):
    pass


LightWarsAction = Roll | Deploy | DeployAll | ChooseFirst | Tactics | Move | Turn | Wait | Attack | Concede



def parse_action(data: Any) -> LightWarsAction:
    """Plain data (or an action) -> a typed action; RuleError ``malformed`` on a bad shape."""
    if isinstance(data, Action):
        return data  # type: ignore[return-value]
    try:
        return msgspec.convert(data, LightWarsAction)  # type: ignore[no-any-return]
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"not a Light Wars action: {error}") from None


__all__ = [
    "Attack", "ChooseFirst", "Concede", "Deploy", "DeployAll", "LightWarsAction", "Move", "Roll", "Tactics", "Turn",
    "Wait",
    "parse_action",
]
