"""HeroScape events: the facts of a game, past tense, tags fixed forever.

``engine.heroscape`` trusts these facts and never re-runs a rule. A game carries its own map and army cards
(``game_started``), so a stored game never depends on the fixtures again. Every die is an event (``dice_rolled``):
drawn from the project's generator in sealed mode (``source="prng"``), entered at the table in table mode
(``source="table"``). A hex is ``[q, r]`` (axial coordinates); a figure is named by its card and, in a squad, its
number (``"tarn-vikings/2"``), unique within its owner's army. docs/heroscape.md explains every field.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Adjudication, Event
from events.codec import Codec

Hex = tuple[int, int]

# -- parts of events ----------------------------------------------------------------------------------------


class Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A value inside an event (not an event itself)."""


class SeatRecord(Part, frozen=True):
    id: str
    name: str


class Variant(Part, frozen=True):
    mode: Literal["sealed", "table"] = "sealed"
    game: Literal["master", "basic"] = "master"  # §5: wounds against life, or more skulls than shields destroys
    map: str = "twin-hill"  # the sample map's key (its cells are in game_started.board)
    max_rounds: int = 12  # the scenario's round limit (§8: "other scenarios set ... round limits")


class Special(Part, frozen=True):
    """A special attack of a card (§5, §7): no height bonus for the attacker."""

    name: str
    range: int
    attack: int
    extra: bool = False  # made besides the figure's normal attack in the same turn (§7: Grimnak's chomp)
    area: bool = False  # also strikes every figure around the target (§7: a grenade; 8 hexes round a double-space)
    once: bool = False  # once a game per card


class CardRecord(Part, frozen=True):
    """One army card as it entered the game (§1)."""

    key: str
    name: str
    kind: Literal["hero", "squad"]
    figures: int
    life: int
    move: int
    range: int
    attack: int
    defense: int
    height: int
    points: int
    space: int  # 1 single-space, 2 double-space
    powers: tuple[str, ...]
    specials: tuple[Special, ...] = ()


class ArmyRecord(Part, frozen=True):
    player: str
    name: str  # the sample army's key, or "custom"
    cards: tuple[CardRecord, ...]
    points: int


class BoardRecord(Part, frozen=True):
    """The map (docs/heroscape.md "Map format")."""

    name: str
    cells: tuple[tuple[int, int, int, str, str | None], ...]  # q, r, level, terrain, glyph
    obstacles: tuple[tuple[Hex, Hex, int], ...]
    start_zones: dict[str, tuple[Hex, ...]]


class Placement(Part, frozen=True):
    figure: str
    hex: Hex
    tail: Hex | None = None  # a double-space figure's second hex


class PositionFigure(Part, frozen=True):
    owner: str
    figure: str
    hex: Hex
    tail: Hex | None = None
    wounds: int = 0


class PositionRecord(Part, frozen=True):
    """A starting position (like a chess FEN): the game begins at the order markers of ``round``."""

    figures: tuple[PositionFigure, ...]
    round: int
    used: tuple[str, ...] = ()  # glyphs already used up (Kelda heals once)
    specials_used: dict[str, tuple[str, ...]] = {}  # player -> once-a-game specials spent ("card:special")


class Target(Part, frozen=True):
    """One figure an attack strikes, with its defense dice (§5)."""

    figure: str
    player: str
    hex: Hex
    level: int
    defense: int  # the card's defense + glyph bonus
    height_bonus: int  # +1/+2 when the defender stands higher
    dice: int


# -- events -------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="game_started"):
    system: str  # "heroscape"
    rules_version: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    armies: tuple[ArmyRecord, ...]
    board: BoardRecord
    seed: int | None = None  # sealed mode: every die follows from it (hidden from every view but all)
    prng: str | None = None  # "splitmix64-dice/1"
    position: PositionRecord | None = None
    # issue 30: a game on a catalogue other than the default carries it whole beside the armies and the board taken
    # from it (so the record is self-contained and ``verify`` starts it again), with the content id it was given by.
    # Absent (UNSET, never written) for the default catalogue: those games' bytes are what they always were.
    catalogue: dict[str, Any] | UnsetType = UNSET
    catalogue_id: str | UnsetType = UNSET


class ArmyPlaced(Event, frozen=True, tag="army_placed"):
    """A player's figures set up in its start zone (§1, open information)."""

    player: str
    placements: tuple[Placement, ...]


class MarkersPlaced(Event, frozen=True, tag="markers_placed"):
    """Order markers 1, 2, 3 and the decoy X on army cards (§2), in secret: ``markers`` is hidden from every view
    but its owner's (and all) — a marker is shown only by ``marker_revealed``; the X never."""

    player: str
    round: int
    markers: dict[str, str] | None  # "1", "2", "3", "X" -> card key


class DiceRolled(Event, frozen=True, tag="dice_rolled"):
    purpose: Literal["initiative", "attack", "defense", "leaving", "falling", "berserker"]
    player: str  # whose dice
    die: Literal["d20", "combat"]
    values: tuple[int, ...]  # d20: 1-20; combat: 1-6 (1-3 skull, 4-5 shield, 6 blank, §1)
    source: Literal["prng", "table"]
    figure: str | None = None  # the figure that rolls (an attacker, a defender, a striker, a faller)
    attack: int | None = None  # the attack these dice decide


class InitiativeTied(Event, frozen=True, tag="initiative_tied"):
    """The tied highest re-roll (§2)."""

    contenders: tuple[str, ...]
    totals: dict[str, int]


class InitiativeWon(Event, frozen=True, tag="initiative_won"):
    round: int
    order: tuple[str, ...]  # the first player, then the others in seating order
    totals: dict[str, int]  # the deciding rolls with Dagmar's bonus


class MarkerRevealed(Event, frozen=True, tag="marker_revealed"):
    player: str
    round: int
    number: int  # 1, 2, 3
    card: str


class TurnLost(Event, frozen=True, tag="turn_lost"):
    """§2: every figure of the revealed card is destroyed."""

    player: str
    number: int
    card: str


class MoveDeclared(Event, frozen=True, tag="move_declared"):
    """A figure moves (§3): the path the engine found (the fewest falling dice, then the least movement), what it
    costs, who strikes it as it leaves engagement (§4) and how many dice it rolls for falling."""

    player: str
    figure: str
    origin: Hex
    to: Hex
    tail: Hex | None  # a double-space figure's second hex where it stops
    path: tuple[Hex, ...]
    cost: int
    allowance: int  # its move (+ Valda, + the road's 3 when it kept to the road)
    road: bool
    strikers: tuple[str, ...]  # enemy figures striking it as it leaves engagement
    fall_dice: int


class FigureMoved(Event, frozen=True, tag="figure_moved"):
    player: str
    figure: str
    origin: Hex
    to: Hex
    tail: Hex | None


class FigureWounded(Event, frozen=True, tag="figure_wounded"):
    player: str  # the owner
    figure: str
    wounds: int  # added
    total: int  # its wounds now
    cause: Literal["attack", "leaving", "falling", "effect"]
    by: str | None = None  # the figure (or card, for an effect) that caused them


class FigureDestroyed(Event, frozen=True, tag="figure_destroyed"):
    player: str
    figure: str
    card: str
    hex: Hex
    cause: Literal["attack", "leaving", "falling", "effect"]
    by: str | None = None
    by_player: str | None = None


class GlyphTaken(Event, frozen=True, tag="glyph_taken"):
    """A power glyph used up by the figure that stopped on it (§6): Kelda heals a hero fully, once."""

    player: str
    figure: str
    glyph: str
    hex: Hex
    healed: int


class ChargeResolved(Event, frozen=True, tag="charge_resolved"):
    """§7 Berserker Charge: the d20 rolled after moving; 15 or more moves the squad again."""

    player: str
    card: str
    roll: int
    again: bool


class AttackDeclared(Event, frozen=True, tag="attack_declared"):
    attack: int  # 1, 2, ... in the game
    player: str
    figure: str
    card: str
    hex: Hex
    level: int
    special: str | None  # a special attack's name (no height bonus for the attacker)
    distance: int  # the range in spaces over the map (§5): round an inlet, not across it
    range: int
    engaged: bool  # an engaged attacker needs no line of sight (§4)
    sight: bool | None  # the engine's line of sight (R1); None when not needed
    referee: bool | None  # table mode: the referee's call, kept beside the engine's (R1)
    base: int  # the card's attack (or the special's)
    glyph_bonus: int
    height_bonus: int
    dice: int
    targets: tuple[Target, ...]


class AttackResolved(Event, frozen=True, tag="attack_resolved"):
    attack: int
    target: str
    defender: str
    skulls: int
    shields: int
    wounds: int
    destroyed: bool


class EffectApplied(Event, frozen=True, tag="effect_applied"):
    """A card text the engine does not know, recorded (§7): the card and the change it made."""

    player: str
    card: str
    change: Literal["wound", "heal", "destroy", "move"]
    figure: str
    owner: str
    amount: int = 0
    to: Hex | None = None
    tail: Hex | None = None
    text: str = ""


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    player: str
    round: int
    number: int


class RoundEnded(Event, frozen=True, tag="round_ended"):
    round: int
    glyphs: dict[str, tuple[str, ...]]  # permanent glyphs each player holds at the round's end (R2)
    points: dict[str, int]  # points of the cards each player still has on the map


class Conceded(Event, frozen=True, tag="conceded"):
    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):
    reason: Literal["annihilation", "rounds", "concession", "adjudicated"]
    winner: str | None  # None: a draw
    points: dict[str, int]
    adjudication: Adjudication | None = None  # reason adjudicated: how the scorekeeper ended it (engine.adjudication)


HeroScapeEvent = (
    GameStarted
    | ArmyPlaced
    | MarkersPlaced
    | DiceRolled
    | InitiativeTied
    | InitiativeWon
    | MarkerRevealed
    | TurnLost
    | MoveDeclared
    | FigureMoved
    | FigureWounded
    | FigureDestroyed
    | GlyphTaken
    | ChargeResolved
    | AttackDeclared
    | AttackResolved
    | EffectApplied
    | TurnEnded
    | RoundEnded
    | Conceded
    | GameEnded
)

CODEC: Codec[HeroScapeEvent] = Codec(HeroScapeEvent)

__all__ = [
    "CODEC", "ArmyPlaced", "ArmyRecord", "AttackDeclared", "AttackResolved", "BoardRecord", "CardRecord",
    "ChargeResolved", "Conceded", "DiceRolled", "EffectApplied", "FigureDestroyed", "FigureMoved", "FigureWounded",
    "GameEnded", "GameStarted", "GlyphTaken", "HeroScapeEvent", "InitiativeTied", "InitiativeWon", "MarkerRevealed",
    "MarkersPlaced", "MoveDeclared", "Placement", "PositionFigure", "PositionRecord", "RoundEnded", "SeatRecord",
    "Special", "Target", "TurnEnded", "TurnLost", "Variant",
]
