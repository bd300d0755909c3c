"""Legend of the Five Rings (Ivory Extended 40/40) events: the facts of a game, past tense, tags fixed forever.

``engine.l5r`` trusts these facts and never re-runs a rule. Cards are named by instance: ``<seat>.<card id>.<copy>``
(``p1.hida-yakamo.2``: p1's second copy of Hida Yakamo in its deck list; the stronghold ``p1.kyuden-hida.1``), so a
card's identity is in its name, and a hidden card is hidden by hiding the name (views redact the field to None).
Provinces are numbered 1-4 from the left as dealt; a destroyed province keeps its number gone (the row closes up).

Chance is an event either way: in ``sealed`` mode the decks are shuffled from the game's seed (``engine.prng``,
``shuffle`` names the algorithm) and every draw names the card it drew (``source="prng"``); in ``table`` mode the
table enters every card as it is seen: a card drawn into a hand (``source="table"``), and a card laid face down
unseen (a province's, ``source="unseen"``; a focus card from the deck, ``unseen``) when it turns face up
(``cards_revealed`` / ``focus_revealed`` with ``table``). Games of rules ``l5r/1`` entered a face-down card as it was
placed (``province_filled`` with ``source="table"``, ``duel_focused`` with ``table``). docs/l5r.md explains every
field.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from events.base import Adjudication, Event
from events.codec import Codec

Destination = Literal["hand", "province", "focus"]


class Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A value inside an event (not an event itself)."""


class SeatRecord(Part, frozen=True):
    id: str
    name: str


class Variant(Part, frozen=True):
    mode: Literal["sealed", "table"] = "sealed"


class DeckRecord(Part, frozen=True):
    """One player's cards as the game began (§1): the decks as lists of card ids (copies repeated)."""

    player: str
    name: str  # the sample deck's name, or "custom"
    clan: str  # the stronghold's clan
    stronghold: str
    sensei: str | None
    dynasty: tuple[str, ...]
    fate: tuple[str, ...]
    honor: int  # starting family honour (stronghold + sensei)
    province_strength: int  # stronghold + sensei
    gold: int  # the stronghold's gold production, with the sensei's modifier


class PositionCard(Part, frozen=True):
    """A card in play in a position: a personality, holding or ring at home (attachments under a personality)."""

    card: str
    bowed: bool = False
    dishonored: bool = False
    attachments: tuple[str, ...] = ()


class PositionProvince(Part, frozen=True):
    card: str | None = None  # None: an empty province
    face_up: bool = False


class PositionPlayer(Part, frozen=True):
    player: str
    honor: int
    home: tuple[PositionCard, ...] = ()
    provinces: tuple[PositionProvince | None, ...] = ()  # 4 entries; None: destroyed
    hand: tuple[str, ...] = ()
    dynasty: tuple[str, ...] = ()  # the dynasty deck, top first
    fate: tuple[str, ...] = ()  # the fate deck, top first
    stronghold_bowed: bool = False


class PositionFocus(Part, frozen=True):
    player: str
    card: str
    source: Literal["hand", "deck"]


class PositionDuel(Part, frozen=True):
    """A duel in progress: challenger and challenged as ``player:card`` in play at home, focuses so far."""

    challenger: str
    challenged: str
    stat: Literal["chi", "force", "honor"] = "chi"
    focuses: tuple[PositionFocus, ...] = ()


class PositionRecord(Part, frozen=True):
    """A starting position (like a chess FEN): the game begins in ``active``'s action phase of ``turn``."""

    turn: int
    active: str
    players: tuple[PositionPlayer, ...]
    duel: PositionDuel | None = None


class Revealed(Part, frozen=True):
    province: int
    card: str  # the instance turned face up


class FocusCard(Part, frozen=True):
    player: str
    card: str
    focus: int
    source: Literal["hand", "deck"]


class HonorChange(Part, frozen=True):
    player: str
    amount: int


# -- events -------------------------------------------------------------------------------------------------


class GameStarted(Event, frozen=True, tag="game_started"):

    system: str  # "l5r"
    rules_version: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    decks: tuple[DeckRecord, ...]
    order: tuple[str, ...]  # turn order (R1: highest family honour first; a tie as the players decided)
    seed: int | None = None  # sealed: the decks' order follows from it (hidden from every view but all)
    shuffle: str | None = None  # the deck-order algorithm (sealed), "splitmix64-fisher-yates/1"
    position: PositionRecord | None = None
    # issue 30: the catalogue the game plays, when not the built-in one (absent, not null, for the built-in one: a
    # game on the default catalogue records what it recorded before); its content id as the API resolved it
    catalogue: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
    catalogue_id: str | msgspec.UnsetType = msgspec.UNSET


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """A fate card drawn into a hand (setup, end phase, a card's text)."""


    player: str
    card: str | None  # hidden from all but its owner
    source: Literal["prng", "table"]


class ProvinceFilled(Event, frozen=True, tag="province_filled"):
    """A dynasty card placed face down into a province (setup or a refill); nobody looks at it (§2). In table mode it
    is ``unseen``: no card is named until it turns face up (``cards_revealed`` with ``table``)."""


    player: str
    province: int
    card: str | None  # hidden from every view but all until it is revealed; None when unseen
    source: Literal["prng", "table", "unseen"]  # table: entered as placed (rules l5r/1 only)


class TurnStarted(Event, frozen=True, tag="turn_started"):
    """§3.1: the turn player's bowed cards straighten."""


    player: str
    turn: int
    straightened: tuple[str, ...]


class CardsRevealed(Event, frozen=True, tag="cards_revealed"):
    """§3.1: face-down province cards turn face up. A dynasty event revealed is discarded and its province refilled
    (docs/l5r.md D2). ``table``: one unseen card entered at the table as it turns face up (a ``draw`` action): at the
    start of its owner's turn, or as it is discarded with its destroyed province (then in ``discarded`` too)."""


    player: str
    cards: tuple[Revealed, ...]
    discarded: tuple[str, ...] = ()  # events among them, gone to the dynasty discard
    table: bool = False


class PhaseStarted(Event, frozen=True, tag="phase_started"):

    player: str  # the turn player
    phase: Literal["attack", "dynasty", "end"]


class Passed(Event, frozen=True, tag="passed"):
    """The seat ends its actions in a window (action phase, engage, battle, maneuvers, dynasty, attack)."""


    player: str
    window: str


class GoldProduced(Event, frozen=True, tag="gold_produced"):

    player: str
    card: str  # the stronghold or holding bowed
    gold: int


class CardRecruited(Event, frozen=True, tag="card_recruited"):

    player: str
    province: int
    card: str
    gold: int  # paid, the clan surcharge included
    surcharge: int  # §3.3: 2 for a personality of a clan not yet at home
    proclaimed: bool


class CardAttached(Event, frozen=True, tag="card_attached"):

    player: str
    card: str  # from hand
    to: str  # the personality
    gold: int


class RingPlayed(Event, frozen=True, tag="ring_played"):

    player: str
    card: str
    element: str


class StrategyPlayed(Event, frozen=True, tag="strategy_played"):

    player: str
    card: str
    gold: int


class EffectApplied(Event, frozen=True, tag="effect"):
    """What a card's text did (the engine does not know card texts): ``kind`` of change to ``target`` by ``amount``.
    ``destroyed``: the consequence the engine derives (chi at 0). A card that eliminates a player or wins the game
    (R9: ``eliminate`` / ``win``) is followed by ``player_eliminated`` / ``game_ended`` naming it."""


    player: str
    card: str  # the card whose text acts
    kind: str
    target: str
    amount: int = 0
    until: Literal["battle", "turn", "game"] = "turn"
    destroyed: tuple[str, ...] = ()


class HonorChanged(Event, frozen=True, tag="honor_changed"):
    """A family honour change (a consequence): ``total`` is the new family honour."""


    player: str
    amount: int
    total: int
    reason: Literal["proclaim", "battle", "dishonored_destroyed", "effect"]


class AttackDeclared(Event, frozen=True, tag="attack_declared"):

    player: str
    defender: str
    battlefields: tuple[int, ...]  # the defender's provinces, one battlefield each


class ArmyAssigned(Event, frozen=True, tag="army_assigned"):

    player: str
    side: Literal["attacker", "defender"]
    battlefield: int
    units: tuple[str, ...]  # personalities (each with its attachments)


class BattleResolved(Event, frozen=True, tag="battle_resolved"):
    """§4, with every derived fact. ``winner``: attacker | defender | tie | None (a tie with one or no army)."""


    battlefield: int
    attacker: str
    defender: str
    attacker_force: int
    defender_force: int
    province_strength: int
    winner: Literal["attacker", "defender", "tie"] | None
    province_destroyed: bool
    destroyed: tuple[str, ...]  # every card destroyed, attachments included
    discarded: tuple[str, ...]  # the province's card, when the province falls
    honor: tuple[HonorChange, ...]  # gains (and losses of dishonoured personalities destroyed)
    restored: tuple[str, ...]  # dishonoured personalities restored instead of gaining honour
    returned_bowed: tuple[str, ...]  # the attacking army's survivors, home bowed


class AttackEnded(Event, frozen=True, tag="attack_ended"):

    player: str
    returned: tuple[str, ...]  # the defending armies' survivors, home as they are


class DuelChallenged(Event, frozen=True, tag="duel_challenged"):

    player: str  # the challenging seat
    challenger: str
    challenged: str
    stat: Literal["chi", "force", "honor"]
    card: str | None = None  # the card whose text starts the duel
    destroy_loser: bool = True  # §5.3 unless the initiating card says otherwise


class DuelFocused(Event, frozen=True, tag="duel_focused"):
    """A focus card laid face down: from hand (its owner knows it) or the top of the fate deck (nobody does)."""


    player: str
    source: Literal["hand", "deck"]
    card: str | None  # hidden until the reveal (duel_resolved); None when unseen
    table: bool = False  # the card was entered by the scorekeeper as it was laid (rules l5r/1, table mode)
    unseen: bool = False  # table mode, from the deck: nobody saw it; entered at the reveal (focus_revealed)


class FocusRevealed(Event, frozen=True, tag="focus_revealed"):
    """Table mode: a focus card laid unseen from the top of the fate deck, entered at the table as the duel reveals
    it (§5.3; the player's first focus not yet entered)."""


    player: str
    card: str


class DuelStruck(Event, frozen=True, tag="duel_struck"):

    player: str | None  # who struck; None: both focused four times (R2)


class DuelResolved(Event, frozen=True, tag="duel_resolved"):

    challenger: str
    challenged: str
    base: tuple[int, int]  # challenger's, challenged's stat with modifiers
    totals: tuple[int, int]
    revealed: tuple[FocusCard, ...]
    winner: str | None  # the winning personality; None: equal totals, both lose
    losers: tuple[str, ...]
    destroyed: tuple[str, ...]
    returned_home: tuple[str, ...] = ()  # R7: the survivors taken out of their armies (a duel during a battle)


class DynastyDiscarded(Event, frozen=True, tag="dynasty_discarded"):

    player: str
    province: int
    card: str


class CardDiscarded(Event, frozen=True, tag="card_discarded"):
    """§3.4: a fate card discarded from hand down to 8."""


    player: str
    card: str


class TurnEnded(Event, frozen=True, tag="turn_ended"):

    player: str
    next: str


class PlayerEliminated(Event, frozen=True, tag="player_eliminated"):

    player: str
    reason: Literal["provinces", "honor", "card"]
    card: str | None = None  # reason "card": the card whose text eliminates the player (R9)


class Conceded(Event, frozen=True, tag="conceded"):

    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):

    winner: str | None
    reason: Literal["honor", "enlightenment", "military", "concession", "card", "adjudicated"]
    honor: tuple[int, ...]  # family honour per seat at the end
    card: str | None = None  # reason "card": the card whose text wins the game (R9)
    adjudication: Adjudication | None = None  # reason adjudicated: how the scorekeeper ended it (engine.adjudication)


class NothingDrawn(Event, frozen=True, tag="nothing_drawn"):
    """R9: a draw from an empty deck draws nothing and play goes on: the end phase's fate card, a card's draw, or a
    province's refill (``province``) from an empty dynasty deck."""


    player: str
    deck: Literal["fate", "dynasty"]
    province: int | None = None


L5REvent = (
    GameStarted | CardDrawn | ProvinceFilled | TurnStarted | CardsRevealed | PhaseStarted | Passed | GoldProduced
    | CardRecruited | CardAttached | RingPlayed | StrategyPlayed | EffectApplied | HonorChanged | AttackDeclared
    | ArmyAssigned | BattleResolved | AttackEnded | DuelChallenged | DuelFocused | FocusRevealed | DuelStruck
    | DuelResolved
    | DynastyDiscarded | CardDiscarded | TurnEnded | PlayerEliminated | Conceded | GameEnded | NothingDrawn
)

CODEC: Codec[L5REvent] = Codec(L5REvent)

__all__ = [
    "CODEC", "ArmyAssigned", "AttackDeclared", "AttackEnded", "BattleResolved", "CardAttached", "CardDiscarded",
    "CardDrawn", "CardRecruited", "CardsRevealed", "Conceded", "DeckRecord", "DuelChallenged", "DuelFocused",
    "DuelResolved", "DuelStruck", "DynastyDiscarded", "EffectApplied", "FocusCard", "FocusRevealed", "GameEnded",
    "GameStarted", "GoldProduced", "HonorChange", "HonorChanged", "L5REvent", "NothingDrawn", "Passed",
    "PhaseStarted", "PlayerEliminated", "PositionCard", "PositionDuel", "PositionFocus", "PositionPlayer",
    "PositionProvince", "PositionRecord", "ProvinceFilled", "Revealed", "RingPlayed", "SeatRecord",
    "StrategyPlayed", "TurnEnded", "TurnStarted", "Variant",
]
