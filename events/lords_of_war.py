"""Lords of War events: the facts of a game, past tense, tags fixed forever.

The catalogue with the meaning of every field is ``docs/events.md``. ``engine.lords_of_war.evolve`` trusts these
facts and never re-runs a rule, so a game replays exactly as it was recorded even after the rules code changes.

Squares are the names the game uses: ``"C3"`` on the 7x6 mat, ``"x,y"`` in the unbounded variant (A1 = ``"0,0"``).
Players are ``"p1"`` and ``"p2"``. Card ids are catalogue ids (``"orcs/orc-ravager-2"``).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from events.base import Adjudication, Event
from events.codec import Codec

# -- parts of events ----------------------------------------------------------------------------------------


class Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A value inside an event (not an event itself)."""


class ArmyRecord(Part, frozen=True):
    """One player's army as it entered the game: the 36 card ids, in the order the deck was built from."""

    id: str  # "p1"
    name: str  # the player's display name
    army_name: str  # faction name for a core deck, else "custom:<faction>" or "mercenary"
    cards: tuple[str, ...]  # 36 card ids


class Variant(Part, frozen=True):
    mode: Literal["sealed", "table"] = "sealed"
    intermediate: bool = False
    unbounded: bool = False
    kill_target: int = 20
    command_target: int = 4


class UnitRecord(Part, frozen=True):
    square: str
    card: str
    owner: str


class KillsRecord(Part, frozen=True):
    total: int = 0
    commanders: int = 0


class PositionRecord(Part, frozen=True):
    """A starting position (like a chess FEN): the game begins after the challenge, in ``to_move``'s deploy."""

    board: tuple[UnitRecord, ...]
    to_move: str
    kills: dict[str, KillsRecord] = {}


class Attacker(Part, frozen=True):
    """One source of damage to a destroyed unit."""

    square: str
    card: str
    owner: str
    kind: Literal["arrow", "shot"]
    direction: str | None  # arrows: N NE E SE S SW W NW in the attacker owner's frame; shots: None
    value: int


class DestroyedUnit(Part, frozen=True):
    square: str
    card: str
    owner: str
    damage: int  # total incoming damage (arrows + shots)
    defence: int  # destroyed because damage > defence
    attackers: tuple[Attacker, ...]


# -- events -------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="game_started"):
    system: str  # "lords-of-war"
    rules_version: str
    players: tuple[ArmyRecord, ...]
    variant: Variant
    seed: int | None = None
    shuffle: str | None = None  # deck-order algorithm (sealed mode), e.g. "splitmix64-fisher-yates/1"
    position: PositionRecord | None = None
    # Issue 30: the catalogue the game plays when it is not the system's default: the whole document and its
    # content id (engine.catalogue.catalogue_id). Left out of the JSON on the default (UNSET is never encoded), so
    # a default game's game_started is byte-for-byte what it was; no schema version bump for optional fields.
    catalogue: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
    catalogue_id: str | msgspec.UnsetType = msgspec.UNSET


class HandDealt(Event, frozen=True, tag="hand_dealt"):
    player: str
    cards: tuple[str, ...] | None  # sealed: the 6 cards (general first); table: None (unknown)
    count: int


class Placed(Event, frozen=True, tag="placed"):
    player: str
    card: str
    square: str
    turn: int  # 0 = the challenge
    challenge: bool = False
    forced: bool = False  # §5.1(c) forced placement (then hand_revealed precedes it)
    # which rule allowed it: challenge|contact|support|no_enemy|empty_mat|forced|forced_friendly|forced_anywhere
    basis: str = "contact"


class HandRevealed(Event, frozen=True, tag="hand_revealed"):
    player: str
    cards: tuple[str, ...]  # the whole hand before the forced placement (§5.1c)


class Shot(Event, frozen=True, tag="shot"):
    player: str
    shooter_square: str
    shooter_card: str
    target_square: str
    target_card: str
    value: int


class Eliminated(Event, frozen=True, tag="eliminated"):
    round: int  # 1 = the turn's elimination; 2, 3... after berserker moves (R13)
    units: tuple[DestroyedUnit, ...]  # board order (row, then column)
    kills_to: dict[str, int]  # destroying player -> number of cards added to their kill pile


class BerserkerMoved(Event, frozen=True, tag="berserker_moved"):
    player: str
    card: str
    origin: str
    target: str


class ExtraTurnGranted(Event, frozen=True, tag="extra_turn_granted"):
    player: str  # §5.4, R9: the active player takes another turn after reinforcing


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    player: str
    card: str | None  # None in table mode when the card is not known


class Recalled(Event, frozen=True, tag="recalled"):
    player: str
    square: str
    card: str


class ReinforceSkipped(Event, frozen=True, tag="reinforce_skipped"):
    player: str
    reason: str  # "deck_empty_nothing_to_recall" (R7)


class Conceded(Event, frozen=True, tag="conceded"):
    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):
    winner: str | None  # "p1" | "p2" | "draw" | None; §10: a team's name
    reason: Literal["kills", "commanders", "exhausted", "concession", "adjudicated"]
    adjudication: Adjudication | None = None  # reason adjudicated: how the scorekeeper ended it (engine.adjudication)


LordsOfWarEvent = (
    GameStarted
    | HandDealt
    | Placed
    | HandRevealed
    | Shot
    | Eliminated
    | BerserkerMoved
    | ExtraTurnGranted
    | CardDrawn
    | Recalled
    | ReinforceSkipped
    | Conceded
    | GameEnded
)

CODEC: Codec[LordsOfWarEvent] = Codec(LordsOfWarEvent)

__all__ = [
    "ArmyRecord",
    "Attacker",
    "BerserkerMoved",
    "CODEC",
    "CardDrawn",
    "Conceded",
    "DestroyedUnit",
    "Eliminated",
    "ExtraTurnGranted",
    "GameEnded",
    "GameStarted",
    "HandDealt",
    "HandRevealed",
    "KillsRecord",
    "LordsOfWarEvent",
    "Placed",
    "PositionRecord",
    "Recalled",
    "ReinforceSkipped",
    "Shot",
    "UnitRecord",
    "Variant",
]
