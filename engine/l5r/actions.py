"""Legend of the Five Rings actions: imperative, tagged by ``type``, each naming the seat that acts (``player``).

Cards in play, in hand and in provinces are named by instance (``p1.hida-yakamo.2``); a card entered at the table
(``draw``, a table-mode focus from the deck) by its card id (``hida-yakamo``). docs/l5r.md lists when each is legal.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import RuleError


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Draw(Action, frozen=True, tag="draw"):
    """Table mode: the card the awaited draw took (a fate card into the hand, a dynasty card into a province)."""

    card: str


class Pass(Action, frozen=True, tag="pass"):
    """End one's actions in the window: the action phase, engage and battle segments (two passes in a row close
    them), one's maneuvers, the attack phase without an attack, the dynasty phase."""


class Produce(Action, frozen=True, tag="produce"):
    """Bow the stronghold or a holding for its gold (§3.3)."""

    card: str


class Recruit(Action, frozen=True, tag="recruit"):
    """§3.3: buy the face-up card of a province; ``proclaim`` a personality of one's clan (once a turn)."""

    province: int
    proclaim: bool = False


class Attach(Action, frozen=True, tag="attach"):
    """An open action (§3.1): a follower, item or spell from hand onto a personality in play, paid in gold."""

    card: str
    to: str


class PlayRing(Action, frozen=True, tag="play_ring"):
    """A ring from hand into play (its condition is card text: the players' call, docs/l5r.md)."""

    card: str


class PlayStrategy(Action, frozen=True, tag="play_strategy"):
    """A strategy from hand, paid in gold, to the discard pile; what its text does follows as ``effect``."""

    card: str


class Effect(Action, frozen=True, tag="effect"):
    """What a card's text does (docs/l5r.md lists the kinds): checked for consistency only."""

    card: str
    kind: Literal["force", "chi", "honor", "duel", "province", "family_honor", "gold", "bow", "straighten",
                  "dishonor", "restore", "destroy", "send_home", "discard", "draw", "remove", "eliminate", "win"]
    target: str
    amount: int = 0
    until: Literal["battle", "turn", "game"] = "turn"


class Attack(Action, frozen=True, tag="attack"):
    """§3.2: declare an attack on the other player (one battlefield at each of its provinces)."""


class Army(Action, frozen=True, tag="army"):
    """§3.2 maneuvers: send standing personalities (each with its attachments) as one army to a battlefield."""

    battlefield: int
    units: tuple[str, ...]


class Challenge(Action, frozen=True, tag="challenge"):
    """§5.1: one's standing personality challenges an opposing standing personality to a duel."""

    challenger: str
    challenged: str
    stat: Literal["chi", "force", "honor"] = "chi"
    card: str | None = None  # the card whose text starts the duel
    destroy_loser: bool = True


class Focus(Action, frozen=True, tag="focus"):
    """§5.2: a focus card face down, from hand (``card``: the instance) or the top of the fate deck (``card``: None
    in sealed mode; in table mode the card id, entered by the scorekeeper)."""

    source: Literal["hand", "deck"]
    card: str | None = None


class Strike(Action, frozen=True, tag="strike"):
    """§5.2: end the focusing at once."""


class DiscardDynasty(Action, frozen=True, tag="discard_dynasty"):
    """§3.3: discard one face-up province card (once a turn); the province is refilled face down."""

    province: int


class Discard(Action, frozen=True, tag="discard"):
    """§3.4: a fate card from hand, down to 8."""

    card: str


class Concede(Action, frozen=True, tag="concede"):
    pass


L5RAction = (Draw | Pass | Produce | Recruit | Attach | PlayRing | PlayStrategy | Effect | Attack | Army | Challenge
             | Focus | Strike | DiscardDynasty | Discard | Concede)


def parse_action(data: Any) -> L5RAction:
    """Plain data (or an action) -> a typed action; RuleError ``malformed`` on a bad shape."""
    if isinstance(data, Action):
        return data  # type: ignore[return-value]
    try:
        return msgspec.convert(data, L5RAction)  # type: ignore[no-any-return]
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"not an L5R action: {error}") from None


__all__ = ["Army", "Attach", "Attack", "Challenge", "Concede", "Discard", "DiscardDynasty", "Draw", "Effect",
           "Focus", "L5RAction", "Pass", "PlayRing", "PlayStrategy", "Produce", "Recruit", "Strike",
           "parse_action"]
