"""HeroScape actions: imperative, tagged by ``type``, each naming the seat that acts (``player``).

Figures are named by id (``"grimnak"``, ``"tarn-vikings/2"``), hexes as ``[q, r]``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import RuleError
from events.heroscape import Hex, Placement


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Place(Action, frozen=True, tag="place"):
    """§1: every figure of one's army onto one's start zone (a double-space figure names its ``tail`` hex too)."""

    placements: tuple[Placement, ...]


class Markers(Action, frozen=True, tag="markers"):
    """§2: order markers 1, 2, 3 and the decoy X on one's army cards, in secret."""

    markers: dict[str, str]


class Roll(Action, frozen=True, tag="roll"):
    """Table mode: the dice the awaited seat rolled (d20: 1-20; combat dice: 1-6, as many as are due)."""

    values: tuple[int, ...]


class Move(Action, frozen=True, tag="move"):
    """§3: a figure of this turn's card moves to ``to`` (a double-space figure ends on ``to`` and ``tail``)."""

    figure: str
    to: Hex
    tail: Hex | None = None


class Charge(Action, frozen=True, tag="charge"):
    """§7 Berserker Charge: after moving, roll the d20 (table mode: ``value``); 15 or more moves the squad again."""

    value: int | None = None


class Attack(Action, frozen=True, tag="attack"):
    """§5: a figure of this turn's card attacks ``target`` (an enemy figure), normally or with a ``special``.

    ``referee``: table mode only, the referee's call on line of sight (R1), kept beside the engine's own."""

    figure: str
    target: str
    special: str | None = None
    referee: bool | None = None


class Effect(Action, frozen=True, tag="effect"):
    """A card text the engine does not know (§7), recorded: ``card`` (one of the player's cards on the map) makes
    ``change`` to ``figure`` (of ``owner``, default: the only figure of that id)."""

    card: str
    change: Literal["wound", "heal", "destroy", "move"]
    figure: str
    owner: str | None = None
    amount: int = 0
    to: Hex | None = None
    tail: Hex | None = None
    text: str = ""


class EndTurn(Action, frozen=True, tag="end_turn"):
    """The turn's figures have moved and attacked as they will (§2)."""


class Concede(Action, frozen=True, tag="concede"):
    pass


HeroScapeAction = Place | Markers | Roll | Move | Charge | Attack | Effect | EndTurn | Concede


def parse_action(data: Any) -> HeroScapeAction:
    """Plain data (or an action) -> a typed action; RuleError ``malformed`` on a bad shape."""
    if isinstance(data, Action):
        return data  # type: ignore[return-value]
    try:
        return msgspec.convert(data, HeroScapeAction)  # type: ignore[no-any-return]
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"not a HeroScape action: {error}") from None


__all__ = ["Attack", "Charge", "Concede", "Effect", "EndTurn", "HeroScapeAction", "Markers", "Move", "Place", "Roll",
           "parse_action"]
