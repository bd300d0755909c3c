"""Light Wars (ライトウォーズ) events: the facts of a game, past tense, tags fixed forever.

``engine.light_wars`` trusts these facts and never re-runs a rule. Every die is an event (``die_rolled``): drawn
from the project's generator in sealed mode (``source="prng"``), entered at the table in table mode
(``source="table"``); a die of an attack names the attack (``attack``, numbered 1, 2, ... in the game) it decides.

Squares are ``"A1"``..``"I9"`` on the 9 x 9 sample map (columns A-I, rows 1-9, row 1 on p1's side; a game on
another catalogue's map: up to ``"Z26"``); a facing is
``N`` (towards row 9), ``E``, ``S`` or ``W``. Units are named per owner: ``K`` (the King), ``I1`` ``I2`` ...
(infantry), ``C1`` (cavalry), ``A1`` (archers), ``S1`` (spearmen). docs/light-wars.md explains every field.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Adjudication, Event
from events.codec import Codec

# -- parts of events ----------------------------------------------------------------------------------------


class Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A value inside an event (not an event itself)."""


class SeatRecord(Part, frozen=True):
    id: str  # "p1"
    name: str


class Variant(Part, frozen=True):
    mode: Literal["sealed", "table"] = "sealed"
    size: Literal["small", "medium", "large", "custom"] = "small"
    total_cost: int = 20  # §2.1: small 20, medium 30, large 40
    max_turns: int = 5  # §2.1: small 5, medium 8, large 12
    deployment: Literal["alternate", "screen"] = "alternate"  # §2.3


class UnitRecord(Part, frozen=True):
    id: str  # "I1": unique within its owner's army
    type: str  # "infantry": a unit type of the catalogue


class ArmyRecord(Part, frozen=True):
    """One player's army as it entered the game (§2.2)."""

    player: str
    name: str  # the sample army's name, or "custom"
    units: tuple[UnitRecord, ...]
    tactics: tuple[str, ...]  # tactic tile ids
    cost: int  # units' and tiles' costs summed
    stock: int  # bases left over after mounting the units (§2.2)


class Placement(Part, frozen=True):
    unit: str
    square: str
    facing: str


class PositionUnit(Part, frozen=True):
    owner: str
    unit: str
    square: str
    facing: str


class PositionRecord(Part, frozen=True):
    """A starting position (like a chess FEN): the game begins at ``to_move``'s tactics step of ``turn``."""

    units: tuple[PositionUnit, ...]
    to_move: str
    first: str  # the first player (the turn marker moves after the other one's actions)
    turn: int
    stock: dict[str, int]
    scores: dict[str, int]


class Participant(Part, frozen=True):
    """One attacking unit of an attack (§4)."""

    square: str
    unit: str
    type: str
    attack: int  # its attack value (with a tactic's bonus to shooting archers)
    side: Literal["front", "side", "rear"]  # where it strikes the target from
    bonus: int  # facing bonus: side +1, rear +2
    shooting: bool  # an archer shooting from 2 or 3 squares ahead (never removed, R5)


class RemovedUnit(Part, frozen=True):
    player: str
    unit: str
    type: str
    square: str
    cost: int  # what the opponent scores for it (§5.3)


# -- events -------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="game_started"):
    system: str  # "light-wars"
    rules_version: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    armies: tuple[ArmyRecord, ...]
    bases: int  # bases per player (R1: 12)
    seed: int | None = None  # sealed mode: every die follows from it (hidden from every view but all)
    prng: str | None = None  # the generator the dice are drawn with (sealed), "splitmix64-d6/1"
    position: PositionRecord | None = None
    # issue 30: a game on a catalogue other than the default carries it whole (so the record is self-contained),
    # with the content id it was given by; ``map`` names the catalogue's map played when it is not its first. Absent
    # (UNSET, never written) for the default catalogue and map: those games' bytes are what they always were.
    catalogue: dict[str, Any] | UnsetType = UNSET
    catalogue_id: str | UnsetType = UNSET
    map: str | UnsetType = UNSET


class DieRolled(Event, frozen=True, tag="die_rolled"):
    purpose: Literal["deployment", "first_player", "attack", "defence"]
    player: str  # whose die
    value: int  # 1 to 6
    source: Literal["prng", "table"]
    attack: int | None = None  # the attack this die decides (attack and defence dice)


class RollOffTied(Event, frozen=True, tag="roll_off_tied"):
    purpose: Literal["deployment", "first_player"]


class RollOffWon(Event, frozen=True, tag="roll_off_won"):
    purpose: Literal["deployment", "first_player"]
    winner: str


class UnitDeployed(Event, frozen=True, tag="unit_deployed"):
    player: str
    unit: str
    square: str
    facing: str


class DeploymentScreened(Event, frozen=True, tag="deployment_screened"):
    player: str
    placements: tuple[Placement, ...] | None  # hidden from every other view until screen_lifted


class ScreenLifted(Event, frozen=True, tag="screen_lifted"):
    placements: dict[str, tuple[Placement, ...]]  # every player's deployment, revealed


class DeciderNamed(Event, frozen=True, tag="decider_named"):
    """Who chooses the first player (§2.4): more unused cost, else more bases in stock, else a roll-off."""

    player: str | None  # None: a roll-off decides (by "dice")
    by: Literal["cost", "bases", "dice"]
    unused: dict[str, int]
    stock: dict[str, int]


class FirstPlayerChosen(Event, frozen=True, tag="first_player_chosen"):
    player: str  # who chose
    first: str


class TacticsDeclared(Event, frozen=True, tag="tactics_declared"):
    player: str
    turn: int
    tiles: tuple[str, ...]  # () = none
    paid: int  # bases paid from the stock (they leave the game)


class UnitMoved(Event, frozen=True, tag="unit_moved"):
    player: str
    unit: str
    origin: str
    square: str
    facing: str
    steps: int


class UnitTurned(Event, frozen=True, tag="unit_turned"):
    """R6: a unit turns at some point of its action (before or after its move, before it attacks or waits); the turn
    is no move and does not end the action."""

    player: str
    unit: str
    square: str
    facing: str


class UnitWaited(Event, frozen=True, tag="unit_waited"):
    player: str
    unit: str
    square: str
    facing: str | None  # the facing it turned to (R3), None: it kept its facing


class AttackDeclared(Event, frozen=True, tag="attack_declared"):
    attack: int  # 1, 2, ... in the game
    player: str
    target: str  # square
    target_unit: str
    target_type: str
    defender: str
    defence: int  # the target's attack value
    participants: tuple[Participant, ...]
    tactic_bonus: int  # added to the attacking total by this turn's tactic tiles


class AttackResolved(Event, frozen=True, tag="attack_resolved"):
    attack: int
    attack_total: int  # participants' attack + facing bonuses + tactic bonus + die
    defence_total: int  # target's attack + die
    attack_die: int
    defence_die: int
    winner: Literal["attack", "defence"]
    tie: Literal["defender_removed", "first_strike", "both_first_strike"] | None  # how a tie was settled (§4)
    removed: tuple[RemovedUnit, ...]


class TurnPassed(Event, frozen=True, tag="turn_passed"):
    """The active player's units have all acted (§3.3): ``player`` takes the next tactics step."""

    player: str
    turn: int
    marker: int  # the turn marker's square (counts down to 1)


class Conceded(Event, frozen=True, tag="conceded"):
    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):
    reason: Literal["king", "castle", "score", "concession", "adjudicated"]
    winner: str | None  # None: a draw (§5.3)
    scores: dict[str, int]  # cost of the opponent's removed units (§5.3)
    stock: dict[str, int]  # bases in stock (§5.3's tie-break)
    adjudication: Adjudication | None = None  # reason adjudicated: how the scorekeeper ended it (engine.adjudication)


LightWarsEvent = (
    GameStarted
    | DieRolled
    | RollOffTied
    | RollOffWon
    | UnitDeployed
    | DeploymentScreened
    | ScreenLifted
    | DeciderNamed
    | FirstPlayerChosen
    | TacticsDeclared
    | UnitMoved
    | UnitTurned
    | UnitWaited
    | AttackDeclared
    | AttackResolved
    | TurnPassed
    | Conceded
    | GameEnded
)

CODEC: Codec[LightWarsEvent] = Codec(LightWarsEvent)

__all__ = [
    "CODEC",
    "ArmyRecord",
    "AttackDeclared",
    "AttackResolved",
    "Conceded",
    "DeciderNamed",
    "DeploymentScreened",
    "DieRolled",
    "FirstPlayerChosen",
    "GameEnded",
    "GameStarted",
    "LightWarsEvent",
    "Participant",
    "Placement",
    "PositionRecord",
    "PositionUnit",
    "RemovedUnit",
    "RollOffTied",
    "RollOffWon",
    "ScreenLifted",
    "SeatRecord",
    "TacticsDeclared",
    "TurnPassed",
    "UnitDeployed",
    "UnitMoved",
    "UnitRecord",
    "UnitTurned",
    "UnitWaited",
    "Variant",
]
