"""Art of War: The Card Game events: the facts of a game, past tense, tags fixed forever.

``engine.art_of_war`` trusts these facts and never re-runs a rule. Cards are named by instance,
``<seat>.<card>.<copy>`` (``p1.archer.3``: p1's third ARCHER in its deck list; the KING ``p1.iron-king.1``).
Battlefield squares are a player's own: ``A1``..``C1`` the front row, ``A2``..``C2`` the back row. In sealed mode
the seed orders the decks and every draw names its card; at a table the scorekeeper enters each card drawn.
docs/art-of-war.md explains every field.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from events.base import Adjudication, Event
from events.codec import Codec

Effect = Literal["soldier", "archer", "priest", "guardian", "wizard"]


class Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A value inside an event (not an event itself)."""


class SeatRecord(Part, frozen=True):
    id: str
    name: str


class Variant(Part, frozen=True):
    mode: Literal["sealed", "table"] = "sealed"


class DeckRecord(Part, frozen=True):
    player: str
    name: str  # the sample deck's name, or custom
    king: str  # the KING card id
    cards: tuple[str, ...]  # the 20 basic cards (types), in list order


class Placed(Part, frozen=True):
    card: str
    square: str


class PositionUnit(Part, frozen=True):
    square: str
    card: str  # a card id (a basic type or the player's KING)
    upright: bool = True


class PositionPlayer(Part, frozen=True):
    player: str
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # top first
    standby: tuple[str, ...] = ()  # oldest first
    kingdom: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    field: tuple[PositionUnit, ...] = ()


class PositionRecord(Part, frozen=True):
    """A starting position (like a chess FEN): the game begins in ``active``'s turn ``turn``, after its draw, before
    its arrange or battle."""

    active: str
    turn: int
    players: tuple[PositionPlayer, ...]


# -- events -----------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="game_started"):
    system: str
    rules_version: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    decks: tuple[DeckRecord, ...]
    first: str  # §3.2: the players' choice, recorded
    seed: int | None = None  # sealed: the decks' order follows from it (all only)
    shuffle: str | None = None
    position: PositionRecord | None = None  # every hand and deck in it: all only
    # issue 30: the catalogue the game plays, when not the built-in one (absent, not null, for the built-in one: a
    # game on the default catalogue records what it recorded before); its content id as the API resolved it
    catalogue: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
    catalogue_id: str | msgspec.UnsetType = msgspec.UNSET


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    player: str
    card: str | None  # its owner's
    source: Literal["prng", "table"]


class RedrawDecided(Event, frozen=True, tag="redraw_decided"):
    """§3.3: keep the three cards, or return them, reshuffle and draw three again; one event either way, so the
    decision and the new hand stay its player's."""

    player: str
    again: bool | None
    hand: tuple[str, ...] | None  # the hand after the decision
    source: Literal["prng", "table"] = "prng"


class KingsTaken(Event, frozen=True, tag="kings_taken"):
    """§3.3: each player adds its KING to its hand."""


class Deployed(Event, frozen=True, tag="deployed"):
    """§3.4: one hand card onto a square (upright), one to the standby queue, the deck's top card to the kingdom."""

    player: str
    card: str
    square: str
    standby: str
    kingdom: str  # face up
    source: Literal["prng", "table"]


class TurnStarted(Event, frozen=True, tag="turn_started"):
    """§4.1: the turn player's units stand upright (its draw, §4.2, follows as ``card_drawn``)."""

    player: str
    turn: int


class Arranged(Event, frozen=True, tag="arranged"):
    """§4.3, the turn's one arrange action: ``how`` place | rotate | shift | play; ``moved`` every card moved."""

    player: str
    how: Literal["place", "rotate", "shift", "play"]
    square: str
    to: str | None = None  # shift
    card: str | None = None  # play: the hand card
    moved: tuple[Placed, ...] = ()  # where cards went (a swap moves two; "standby" / "hand" as places)


class BattleDeclared(Event, frozen=True, tag="battle_declared"):
    player: str


class AttackDeclared(Event, frozen=True, tag="attack_declared"):
    """§5: the unit on ``square`` turns sideways and attacks ``target`` (the opponent's square) for ``value``."""

    player: str
    square: str
    unit: str
    target: str
    value: int  # fixed now: SOLDIER hand size, + this turn's SOLDIER supports


class SupportDeclared(Event, frozen=True, tag="support_declared"):
    """§4 rear support: ``card`` from hand to the back of the standby queue, as ``effect``; an answer (guardian,
    wizard) answers the link below it in the chain."""

    player: str
    card: str
    effect: Effect
    target: str | None = None  # archer: the opposing square
    square: str | None = None  # priest: the own unit moved
    to: str | None = None  # priest: where to (a swap when occupied)


class Passed(Event, frozen=True, tag="passed"):
    """The awaited player does not answer: the chain of answers resolves (R3)."""

    player: str


class ChainResolved(Event, frozen=True, tag="chain_resolved"):
    """R3: from the top, each answer cancels the link below it unless itself cancelled: ``effective`` per link,
    the first being the attack or support that started the chain."""

    effective: tuple[bool, ...]


class Damaged(Event, frozen=True, tag="damaged"):
    """§5, R2: one damage instance; ``result`` damaged | captured | destroyed; ``total`` this turn's damage; ``to``
    where a unit taken off the battlefield went: the capturer's kingdom, or its owner's graveyard (a destroyed unit,
    and R6 a captured KING). Version 2 added ``to`` (``upcast_damaged_v1``)."""

    version: ClassVar[int] = 2

    by: str  # the seat dealing it
    source: str  # the attacking unit, or the ARCHER support's card
    source_square: str | None  # the attacking unit's square (None: a support)
    owner: str
    square: str
    unit: str
    value: int
    defence: int
    total: int
    result: Literal["damaged", "captured", "destroyed"]
    to: Literal["kingdom", "graveyard"] | None = None  # None: the unit stays (damaged)


def upcast_damaged_v1(data: dict[str, Any]) -> dict[str, Any]:
    """``damaged`` v1 -> v2: before R6 a captured unit, a KING too, went to the capturer's kingdom and a destroyed
    one to its owner's graveyard; v2 records where it went (``to``)."""
    data["to"] = {"captured": "kingdom", "destroyed": "graveyard"}.get(data.get("result", ""))
    return data


class Moved(Event, frozen=True, tag="moved"):
    """A priest's support (a move or swap) or §2's forced forward move of back-row units."""

    player: str
    moves: tuple[tuple[str, str], ...]  # (from, to) squares
    forced: bool


class Entered(Event, frozen=True, tag="entered"):
    """§4: once a turn, a basic unit from hand into the kingdom."""

    player: str
    card: str


class ConscriptionStarted(Event, frozen=True, tag="conscription_started"):
    player: str


class Conscripted(Event, frozen=True, tag="conscripted"):
    """§6: one card onto a square, from the standby head or the kingdom."""

    player: str
    card: str
    square: str
    source: Literal["standby", "kingdom"]


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    player: str
    next: str


class Conceded(Event, frozen=True, tag="conceded"):
    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):
    winner: str | None
    reason: Literal["execution", "nation_building", "end_of_war", "annihilation", "concession", "adjudicated"]
    kingdoms: tuple[int, ...]
    graveyards: tuple[int, ...]
    adjudication: Adjudication | None = None  # reason adjudicated: how the scorekeeper ended it (engine.adjudication)


ArtOfWarEvent = (
    GameStarted | CardDrawn | RedrawDecided | KingsTaken | Deployed | TurnStarted | Arranged | BattleDeclared
    | AttackDeclared | SupportDeclared | Passed | ChainResolved | Damaged | Moved | Entered | ConscriptionStarted
    | Conscripted | TurnEnded | Conceded | GameEnded
)

CODEC: Codec[ArtOfWarEvent] = Codec(ArtOfWarEvent, upcasters={("damaged", 1): upcast_damaged_v1})

__all__ = [
    "CODEC", "Arranged", "ArtOfWarEvent", "AttackDeclared", "BattleDeclared", "CardDrawn", "ChainResolved",
    "Conceded", "ConscriptionStarted", "Conscripted", "Damaged", "DeckRecord", "Deployed", "Effect", "Entered",
    "GameEnded", "GameStarted", "KingsTaken", "Moved", "Passed", "Placed", "PositionPlayer", "PositionRecord",
    "PositionUnit", "RedrawDecided", "SeatRecord",
    "SupportDeclared", "TurnEnded", "TurnStarted", "Variant", "upcast_damaged_v1",
]
