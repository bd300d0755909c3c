"""Lords of War actions (CONTRACT.md): imperative, tagged by ``type``, unknown fields refused."""

from __future__ import annotations

from typing import Any, cast

import msgspec

from engine.adjudication import Adjudicate, is_adjudication, parse_adjudication
from engine.errors import RuleError


class Shoot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One shot declared with a placement (R5, §6)."""

    shooter: str  # square of the shooting unit
    target: str  # square of the enemy unit shot at


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Place(Action, frozen=True, tag="place"):
    card: str
    square: str
    shots: tuple[Shoot, ...] = ()
    reveal: tuple[str, ...] | None = None  # table mode: the whole hand, shown for a forced placement (§5.1c)


class Draw(Action, frozen=True, tag="draw"):
    card: str | None = None  # table mode only, when the drawn card is known


class Recall(Action, frozen=True, tag="recall"):
    square: str


class Concede(Action, frozen=True, tag="concede"):
    pass


LordsOfWarAction = Place | Draw | Recall | Concede | Adjudicate  # adjudicate: the scorekeeper's (engine.adjudication)

ACTION_TYPES = ("place", "draw", "recall", "concede", "adjudicate")


def parse_action(data: Any) -> LordsOfWarAction:
    """Plain data -> typed action; RuleError(code="malformed") naming what is wrong."""
    if isinstance(data, (Place, Draw, Recall, Concede)):
        return data
    if is_adjudication(data):
        return parse_adjudication(data)
    if not isinstance(data, dict):
        raise RuleError("malformed", "contract", f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in ACTION_TYPES:
        raise RuleError(
            "malformed",
            "contract",
            f"unknown action type {kind!r}: expected one of {', '.join(ACTION_TYPES)}",
        )
    try:
        return cast(LordsOfWarAction, msgspec.convert(data, LordsOfWarAction))
    except msgspec.ValidationError as exc:
        raise RuleError("malformed", "contract", f"malformed {kind} action: {exc}") from None
