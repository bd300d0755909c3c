"""Art of War actions: imperative, tagged by ``type``, each naming the seat that acts (``player``). Cards in hand,
standby and kingdom by instance (``p1.archer.2``); a card entered at a table by its type (``archer``)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import RuleError


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Draw(Action, frozen=True, tag="draw"):
    """Table mode: the card the awaited draw took (its type)."""

    card: str


class Redraw(Action, frozen=True, tag="redraw"):
    """§3.3: keep (``again`` false) or return the three cards, reshuffle and draw three again (a table enters the
    three types drawn in ``cards``)."""

    again: bool
    cards: tuple[str, ...] = ()


class Deploy(Action, frozen=True, tag="deploy"):
    """§3.4: ``card`` onto ``square``, ``standby`` to the standby queue; the deck's top card goes to the kingdom (a
    table enters its type in ``kingdom``)."""

    card: str
    square: str
    standby: str
    kingdom: str | None = None


class Place(Action, frozen=True, tag="place"):
    """Arrange (§4.3): the standby head onto an empty square."""

    square: str


class Rotate(Action, frozen=True, tag="rotate"):
    """Arrange: the unit on ``square`` to the back of the standby queue, the standby head into its square."""

    square: str


class Shift(Action, frozen=True, tag="shift"):
    """Arrange: the unit on ``square`` to ``to`` (a swap when occupied)."""

    square: str
    to: str


class Play(Action, frozen=True, tag="play"):
    """Arrange, only with an empty standby: ``card`` from hand onto ``square`` (the unit there goes to hand)."""

    card: str
    square: str


class Battle(Action, frozen=True, tag="battle"):
    """§4.3: this turn's battle instead of an arrange."""


class Attack(Action, frozen=True, tag="attack"):
    """§5: the unit on ``square`` attacks the opposing unit on ``target`` (the opponent's square)."""

    square: str
    target: str


class Support(Action, frozen=True, tag="support"):
    """§4 rear support: ``card`` from hand to the back of the standby queue as ``effect`` (a KING as any one)."""

    card: str
    effect: str
    target: str | None = None  # archer: the opposing square
    square: str | None = None  # priest: the own unit
    to: str | None = None  # priest: where to


class Pass(Action, frozen=True, tag="pass"):
    """No answer to the attack or support awaiting one (R3): the chain resolves."""


class Entry(Action, frozen=True, tag="entry"):
    """§4: once a turn, a basic unit from hand into the kingdom."""

    card: str


class Conscript(Action, frozen=True, tag="conscript"):
    """§6: the next card onto ``square``: the standby head (``card`` None), or a kingdom card when the standby is
    empty."""

    square: str
    card: str | None = None


class End(Action, frozen=True, tag="end"):
    """End the turn."""


class Concede(Action, frozen=True, tag="concede"):
    pass


ArtOfWarAction = (Draw | Redraw | Deploy | Place | Rotate | Shift | Play | Battle | Attack | Support | Pass | Entry
                  | Conscript | End | Concede)


def parse_action(data: Any) -> ArtOfWarAction:
    if isinstance(data, Action):
        return data  # type: ignore[return-value]
    try:
        return msgspec.convert(data, ArtOfWarAction)  # type: ignore[no-any-return]
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"not an Art of War action: {error}") from None


__all__ = ["ArtOfWarAction", "Attack", "Battle", "Concede", "Conscript", "Deploy", "Draw", "End", "Entry", "Pass",
           "Place", "Play", "Redraw", "Rotate", "Shift", "Support", "parse_action"]
