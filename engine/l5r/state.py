"""The state of a Legend of the Five Rings game, and the one way to apply an event: ``apply`` on a mutable working
state (``Work``) between ``thaw`` and ``freeze``, from which ``engine.folding.Folding`` derives ``evolve`` and ``fold``
(they trust their events and never re-run a rule).

Frozen msgspec Structs of tuples. Players are indexed in seating order (p1, p2); ``order`` is the turn order (R1).
A card instance names its card (``p1.hida-yakamo.2``, ``engine.l5r.catalogue``). Where a card is:

- ``PlayerState.cards``: in play (personalities, holdings, rings; attachments with ``on`` naming their personality);
  a personality in an army is still here, and ``State.armies`` says where it fights;
- ``provinces`` (face down or up), ``hand``, the decks (``dynasty``/``fate``: the cards not yet drawn, in deck-list
  order; in sealed mode the seed orders the draws, ``top``; a position lists its decks top first), the discard
  piles.

``phase``: setup | start (a turn is about to begin) | action | attack | maneuvers | battle | dynasty | end | over.
``priority`` is the seat whose action a window awaits; ``passes`` counts passes in a row without an action between.
R6: in the windows both seats act in (the action phase, the engage and combat segments) each takes one action or
passes in turn; ``action_card`` is the card of the action just taken, whose effects its seat may still record.
A game recorded under ``l5r/1`` (``one_action_at_a_time`` false) folds as it was played: a seat acted until it
passed (the old decision D3).
``pending`` are draws the table must enter (table mode; sealed mode draws at once).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

import msgspec

from engine.folding import Folding
from engine.l5r.catalogue import CardBook, book_of, cards_of, instances, owner_of
from engine.steps import Steps
from events import Adjudication
from events.l5r import (
    ArmyAssigned,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardAttached,
    CardDiscarded,
    CardDrawn,
    CardRecruited,
    CardsRevealed,
    Conceded,
    DeckRecord,
    DuelChallenged,
    DuelFocused,
    DuelResolved,
    DuelStruck,
    DynastyDiscarded,
    EffectApplied,
    FocusRevealed,
    GameEnded,
    GameStarted,
    GoldProduced,
    HonorChanged,
    L5REvent,
    NothingDrawn,
    Passed,
    PhaseStarted,
    PlayerEliminated,
    PositionRecord,
    ProvinceFilled,
    RingPlayed,
    SeatRecord,
    StrategyPlayed,
    TurnEnded,
    TurnStarted,
)

WINDOWS_OF_TWO = frozenset({"action", "engage", "combat"})  # windows both seats act in, closed by two passes
OLD_RULES = "l5r/1"  # before R4-R9: a seat acted in a window until it passed (D3)
MAX_FOCUS = 4  # §5.2
_replace = msgspec.structs.replace


class InPlay(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    bowed: bool = False
    dishonored: bool = False
    on: str | None = None  # an attachment's personality


class Province(msgspec.Struct, frozen=True, kw_only=True):
    number: int  # 1-4 as dealt
    card: str | None = None
    face_up: bool = False
    unseen: bool = False  # table mode: a face-down card nobody has seen; its card is entered when it turns face up


class PlayerState(msgspec.Struct, frozen=True):  # built by position too (``freeze``)
    id: str
    deck: str  # the sample deck's name, or custom
    clan: str
    stronghold: str  # instance
    sensei: str | None
    honor: int
    strength: int  # province strength (stronghold + sensei)
    production: int  # the stronghold's gold (with the sensei's modifier)
    stronghold_bowed: bool = False
    gold: int = 0  # produced this phase, not yet spent
    provinces: tuple[Province, ...] = ()
    hand: tuple[str, ...] = ()
    dynasty: tuple[str, ...] = ()
    fate: tuple[str, ...] = ()
    dynasty_discard: tuple[str, ...] = ()
    fate_discard: tuple[str, ...] = ()
    discard_dishonored: tuple[str, ...] = ()  # the cards of the discard piles lying dishonoured (§4)
    removed: tuple[str, ...] = ()  # the removed-from-game area (§1, R9)
    cards: tuple[InPlay, ...] = ()
    played: tuple[str, ...] = ()  # strategies played this turn (their effects may follow)
    eliminated: bool = False
    proclaimed: bool = False  # this turn (§3.3: once a turn)
    dynasty_discarded: bool = False  # this turn (§3.3: one dynasty discard)


class Modifier(msgspec.Struct, frozen=True, kw_only=True):
    target: str  # a card instance, or "<seat>:<province>" for a province's strength
    stat: str  # force | chi | honor | province | duel
    amount: int
    until: str  # battle | turn | game


class Army(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    side: str  # attacker | defender
    battlefield: int
    units: tuple[str, ...]


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A card the game waits for: a draw into a ``hand``, a ``province`` filled face down (sealed: the seed's card;
    table: unseen), and in table mode an unseen card entered as it turns face up: a province's at the start of
    its owner's turn (``reveal``), a destroyed province's as it is discarded (``discard``), a focus card's at the
    duel's reveal (``focus``)."""

    player: str
    dest: str  # hand | province | reveal | discard | focus
    province: int = 0


class Focus(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    source: str  # hand | deck
    card: str | None  # None: laid unseen from the deck (table mode) until it is entered at the reveal


class Duel(msgspec.Struct, frozen=True, kw_only=True):
    seat: str  # the challenging seat
    challenger: str
    challenged: str
    stat: str
    card: str | None
    destroy_loser: bool
    focuses: tuple[Focus, ...] = ()
    next: str | None = None  # whose turn to focus or strike; None: struck, to resolve
    resume: str | None = None  # the priority the window goes back to after the duel


class State(msgspec.Struct, frozen=True):  # built by position too (``freeze``)
    seq: int = 0
    phase: str = "setup"
    mode: str = "sealed"
    one_action_at_a_time: bool = True  # R6; False: a game of rules l5r/1 (D3: a seat acted until it passed)
    seats: tuple[SeatRecord, ...] = ()
    players: tuple[PlayerState, ...] = ()
    order: tuple[str, ...] = ()
    active: str = ""
    turn: int = 0
    priority: str | None = None
    passes: int = 0
    acted: bool = False
    action_card: str | None = None  # R6: the card of the action just taken (its seat may record its effects)
    closed: bool = False  # the current window closed: the engine moves on
    pending: tuple[Pending, ...] = ()
    defender: str | None = None
    battlefields: tuple[int, ...] = ()
    battle: int = 0  # index into battlefields
    segment: str = ""  # engage | combat | resolve
    armies: tuple[Army, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    duel: Duel | None = None
    seed: int | None = None
    decks: tuple[DeckRecord, ...] = ()  # sealed, without a position: the decks as dealt (the seed orders them)
    winner: str | None = None
    end_reason: str | None = None
    quiet_since: int = 0  # R9: the turn of the last event but passes, empty draws and turn steps (is_stalled)
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)
    catalogue: CardBook | None = None  # the game's cards (issue 30; shared, never copied); None: the built-in ones

    def player(self, seat: str) -> PlayerState:
        for p in self.players:
            if p.id == seat:
                return p
        raise KeyError(seat)

    def other(self, seat: str) -> str:
        return next(p.id for p in self.players if p.id != seat)

    def in_play(self, instance: str) -> InPlay | None:
        """The card ``instance`` in play, or None (also for a name that is no card of a seat's)."""
        seat = instance.split(".", 1)[0]
        for p in self.players:
            if p.id == seat:
                for card in p.cards:
                    if card.id == instance:
                        return card
        return None

    def army_of(self, personality: str) -> Army | None:
        for army in self.armies:
            if personality in army.units:
                return army
        return None


NEW_PROVINCES = tuple(Province(number=n) for n in range(1, 5))  # §2: four, empty until filled


def initial_state() -> State:
    return State()


def awaited(state: State) -> tuple[str, ...]:
    """The seats whose action the game awaits now. Between the events of one decision (a draw being made, a
    window closing, a battle resolving) it is the seat the procedure is for: the draw's, the duel's, the turn
    player's."""
    if state.phase in ("setup", "over"):
        return ()
    if state.pending:
        return (state.pending[0].player,)
    if state.duel is not None:
        return (state.duel.next or state.duel.seat,)
    if state.phase in ("action", "maneuvers", "battle") and state.priority is not None:
        return (state.priority,)
    return (state.active,)


# -- reading the state ---------------------------------------------------------------------------------------


def copy_number(instance: str) -> int:
    return int(instance.rsplit(".", 1)[1])


def unseen_of(pool: Iterable[str], card_id: str) -> str | None:
    """Table mode: the instance a card entered as seen takes from the cards not yet seen (``pool``): its lowest copy
    left, so that which copy it is never depends on where the unseen cards lie."""
    return min((i for i in pool if i.split(".")[1] == card_id), key=copy_number, default=None)


def dynasty_left(state: State | Work, seat: str) -> int:
    """The cards left in ``seat``'s dynasty deck: its unseen pool (``dynasty``) less the unseen cards lying face down
    in its provinces or waiting to be entered as discarded (table mode)."""
    p = state.player(seat)
    left = len(p.dynasty)
    for pr in p.provinces:
        if pr.unseen:
            left -= 1
    for x in state.pending:
        if x.player == seat and x.dest == "discard":
            left -= 1
    return left


def fate_left(state: State | Work, seat: str) -> int:
    """The cards left in ``seat``'s fate deck: its unseen pool (``fate``) less its focus cards laid unseen."""
    laid = sum(1 for f in state.duel.focuses if f.player == seat and f.card is None) if state.duel else 0
    return len(state.player(seat).fate) - laid


# -- the start -----------------------------------------------------------------------------------------------


def start_state(event: GameStarted) -> State:
    """The state ``game_started`` makes (whatever came before it)."""
    seats = tuple([deck.player for deck in event.decks])
    shuffled = event.seed is not None and event.position is None
    state = State(phase="start", mode=event.variant.mode, seats=event.seats,
                  players=tuple([_player_of(deck) for deck in event.decks]), order=event.order,
                  active=event.order[0], seed=event.seed, decks=event.decks if shuffled else (),
                  one_action_at_a_time=event.rules_version != OLD_RULES,
                  pending=_opening_draws(seats) if event.position is None else (),
                  catalogue=book_of(event.catalogue))
    if event.position is not None:
        return _from_position(state, event.position, old_rules=event.rules_version == OLD_RULES)
    return state


@functools.lru_cache(maxsize=64)
def _opening_draws(seats: tuple[str, ...]) -> tuple[Pending, ...]:
    """The draws a game starts awaiting (§2): each seat's four provinces filled, then each seat's five cards."""
    provinces = [Pending(player=seat, dest="province", province=n) for seat in seats for n in range(1, 5)]
    hands = [Pending(player=seat, dest="hand") for seat in seats for _ in range(5)]
    return tuple(provinces + hands)


def _player_of(deck: DeckRecord) -> PlayerState:
    return PlayerState(
        id=deck.player, deck=deck.name, clan=deck.clan, stronghold=f"{deck.player}.{deck.stronghold}.1",
        sensei=f"{deck.player}.{deck.sensei}.1" if deck.sensei else None, honor=deck.honor,
        strength=deck.province_strength, production=deck.gold,
        provinces=NEW_PROVINCES,
        dynasty=instances(deck.player, deck.dynasty), fate=instances(deck.player, deck.fate))


def deck_ranks(seed: int, decks: tuple[DeckRecord, ...]) -> dict[str, int]:
    """Sealed mode: each card instance's place in its shuffled deck (p1's dynasty then fate deck, then p2's, one
    generator from the seed: ``engine.prng``, named in ``game_started.shuffle``). The state keeps the decks as the
    cards left; ``decide`` draws the first of them in this order. Cached: a pure function of the game's start."""
    return _deck_ranks(seed, decks)


@functools.lru_cache(maxsize=256)
def _deck_ranks(seed: int, decks: tuple[DeckRecord, ...]) -> dict[str, int]:
    from engine.prng import SplitMix64, shuffle

    rng = SplitMix64(seed)
    ranks: dict[str, int] = {}
    for deck in decks:
        for cards in (instances(deck.player, deck.dynasty), instances(deck.player, deck.fate)):
            for i, inst in enumerate(shuffle(cards, rng)):
                ranks[inst] = i
    return ranks


def top(state: State, seat: str, which: str) -> str:
    """The card a draw from ``seat``'s ``which`` deck (fate | dynasty) takes now: the first left in the seed's order
    (sealed), or the first of the deck as a position listed it."""
    p = state.player(seat)
    deck = p.fate if which == "fate" else p.dynasty
    if state.seed is None or not state.decks:
        return deck[0]
    ranks = deck_ranks(state.seed, state.decks)
    return min(deck, key=ranks.__getitem__)


def _from_position(state: State, position: PositionRecord, old_rules: bool = False) -> State:  # noqa: C901
    """The table a position describes. Copies are numbered first for the cards a seat may see (home, face-up
    provinces, hand), then for those nobody sees (face-down provinces, the decks), so that no visible card's name
    depends on a hidden one (rules l5r/1: in the order the position names them). In table mode nobody has seen a
    face-down card: a position's face-down province cards and focus cards from the deck join the unseen pool, to be
    entered when they turn face up."""
    unseen = state.mode == "table" and not old_rules
    players = []
    for p in state.players:
        spec = next(s for s in position.players if s.player == p.id)
        cards: list[InPlay] = []
        for pc in spec.home:
            card_id = _instance(p.id, pc.card, cards)
            cards.append(InPlay(id=card_id, bowed=pc.bowed, dishonored=pc.dishonored))
            for att in pc.attachments:
                cards.append(InPlay(id=_instance(p.id, att, cards), on=card_id))
        used = [c.id for c in cards]
        seat = p.id

        def named(card: str, used: list[str] = used, seat: str = seat) -> str:
            used.append(_instance(seat, card, used))
            return used[-1]

        laid = [(n, spec_pr) for n, spec_pr in enumerate(spec.provinces, start=1) if spec_pr is not None]
        order = sorted(laid, key=lambda x: not x[1].face_up) if not old_rules else laid
        shown = {n: named(spec_pr.card) for n, spec_pr in order if spec_pr.card and (spec_pr.face_up or old_rules)}
        hand = [named(card) for card in spec.hand]
        hidden = {n: named(spec_pr.card) for n, spec_pr in order if spec_pr.card and n not in shown}
        dynasty = [named(card) for card in spec.dynasty]
        fate = [named(card) for card in spec.fate]
        provinces = []
        for n, spec_pr in laid:
            if unseen and n in hidden:
                provinces.append(Province(number=n, unseen=True))
            else:
                provinces.append(Province(number=n, card=shown.get(n) or hidden.get(n), face_up=spec_pr.face_up))
        if unseen:
            dynasty = list(hidden.values()) + dynasty
        players.append(msgspec.structs.replace(
            p, honor=spec.honor, cards=tuple(cards), provinces=tuple(provinces), hand=tuple(hand),
            dynasty=tuple(dynasty), fate=tuple(fate), stronghold_bowed=spec.stronghold_bowed))
    state = msgspec.structs.replace(state, players=tuple(players), phase="action", active=position.active,
                                    turn=position.turn, priority=position.active, quiet_since=position.turn - 1)
    if position.duel is not None:
        d = position.duel
        challenger = _named(state, d.challenger)
        challenged = _named(state, d.challenged)
        focuses: list[Focus] = []
        for f in d.focuses:
            owner = state.player(f.player)
            if unseen and f.source == "deck":  # nobody saw it: it stays among the unseen fate cards
                focuses.append(Focus(player=f.player, source="deck", card=None))
                continue
            taken = {x.card for x in focuses}
            inst = next(i for i in (owner.hand if f.source == "hand" else owner.fate)
                        if cards_of(state).card(i).id == f.card and i not in taken)
            focuses.append(Focus(player=f.player, source=f.source, card=inst))
            if f.source == "hand":
                state = _replace_player(state, f.player, hand=_without(owner.hand, inst))
            else:
                state = _replace_player(state, f.player, fate=_without(owner.fate, inst))
        seat = challenger.split(".", 1)[0]
        resume = state.other(seat) if state.one_action_at_a_time else position.active  # R6: the challenge was seat's
        duel = Duel(seat=seat, challenger=challenger, challenged=challenged, stat=d.stat, card=None,
                    destroy_loser=True, focuses=tuple(focuses), resume=resume)
        state = msgspec.structs.replace(state, duel=msgspec.structs.replace(duel, next=next_focus(duel)))
    return state


def _instance(seat: str, card: str, used: Iterable[Any]) -> str:
    taken = {u.id if isinstance(u, InPlay) else u for u in used}
    n = 1
    while f"{seat}.{card}.{n}" in taken:
        n += 1
    return f"{seat}.{card}.{n}"


def _named(state: State, ref: str) -> str:
    """``p1:hida-yakamo`` -> the instance in play."""
    seat, card = ref.split(":", 1)
    return next(c.id for c in state.player(seat).cards if cards_of(state).card(c.id).id == card and c.on is None)


def focus_count(duel: Duel, seat: str) -> int:
    return sum(1 for f in duel.focuses if f.player == seat)


def next_focus(duel: Duel, after: str | None = None) -> str | None:
    """Whose turn to focus or strike: alternating from the challenged player's; a seat with four focuses passes its
    turn (R2); None when both have four (the duel strikes)."""
    challenged = duel.challenged.split(".", 1)[0]
    challenger = duel.seat if duel.seat != challenged else duel.challenger.split(".", 1)[0]
    seats = (challenged, challenger)
    if after is None:  # a duel's start, or a position's duel: the challenged player leads while counts are even
        led = focus_count(duel, seats[0]) > focus_count(duel, seats[1])
        candidates = (seats[1], seats[0]) if led else seats
    else:
        other = seats[1] if after == seats[0] else seats[0]
        candidates = (other, after)
    for seat in candidates:
        if focus_count(duel, seat) < MAX_FOCUS:
            return seat
    return None


# R9: "no event but passes and empty draws": passes, empty draws and the steps every turn takes by itself whatever
# the players do (a turn's start and end, its phases). Any other event is something happening: a card drawn or
# played, gold produced, an attack declared, an honour change...
QUIET_EVENTS = (Passed, NothingDrawn, PhaseStarted, TurnStarted, TurnEnded)


def is_quiet(event: L5REvent) -> bool:
    """R9: whether ``event`` is one of those that leave a round quiet (``State.quiet_since``, ``rules.is_stalled``)."""
    return isinstance(event, QUIET_EVENTS)


def _replace_player(state: State, seat: str, **changes: Any) -> State:
    return _replace(state, players=tuple(_replace(p, **changes) if p.id == seat else p for p in state.players))


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


# -- the working state: one way to apply an event -------------------------------------------------------------


@dataclass(slots=True, eq=False)
class PlayerWork:
    """A seat's part of the working state: ``PlayerState``'s fields, in its order, mutable. A plain class with
    ``__slots__``: an attribute set costs a third of a mutable msgspec Struct's, and ``apply`` sets many.

    The piles most events change are lists, changed in place (the provinces, the hand, the two decks, the cards in
    play); the others stay tuples, rebuilt when an event changes them (rarely), so ``thaw`` and ``freeze`` copy only
    five piles a seat: one step (``evolve``, the replay cursor's) copies the whole state."""

    id: str
    deck: str
    clan: str
    stronghold: str
    sensei: str | None
    honor: int
    strength: int
    production: int
    stronghold_bowed: bool
    gold: int
    provinces: list[Province]
    hand: list[str]
    dynasty: list[str]
    fate: list[str]
    dynasty_discard: tuple[str, ...]
    fate_discard: tuple[str, ...]
    discard_dishonored: tuple[str, ...]
    removed: tuple[str, ...]
    cards: list[InPlay]
    played: tuple[str, ...]
    eliminated: bool
    proclaimed: bool
    dynasty_discarded: bool


@dataclass(slots=True, eq=False)
class Work:
    """The working state ``apply`` changes: ``State``'s fields, in its order, mutable (its players ``PlayerWork``,
    the awaited draws a list), then two indexes by seat: its part of the state (``by_seat``) and the other seat
    (``others``; a game has two seats)."""

    seq: int
    phase: str
    mode: str
    one_action_at_a_time: bool
    seats: tuple[SeatRecord, ...]
    players: list[PlayerWork]
    order: tuple[str, ...]
    active: str
    turn: int
    priority: str | None
    passes: int
    acted: bool
    action_card: str | None
    closed: bool
    pending: list[Pending]
    defender: str | None
    battlefields: tuple[int, ...]
    battle: int
    segment: str
    armies: tuple[Army, ...]
    modifiers: tuple[Modifier, ...]
    duel: Duel | None
    seed: int | None
    decks: tuple[DeckRecord, ...]
    winner: str | None
    end_reason: str | None
    quiet_since: int
    adjudication: Adjudication | None
    catalogue: CardBook | None
    by_seat: dict[str, PlayerWork]
    others: dict[str, str]

    def player(self, seat: str) -> PlayerWork:
        return self.by_seat[seat]


if tuple(f.name for f in fields(Work))[:len(State.__struct_fields__)] != State.__struct_fields__ or \
        tuple(f.name for f in fields(PlayerWork)) != PlayerState.__struct_fields__:
    raise TypeError("Work and PlayerWork copy State's and PlayerState's fields in their order (thaw, freeze)")
_PLAYERS = State.__struct_fields__.index("players")
_astuple = msgspec.structs.astuple
_state_values = operator.attrgetter(*State.__struct_fields__)  # one call: a tuple of the fields' values
_PENDING = State.__struct_fields__.index("pending")


def thaw(state: State) -> Work:
    """A working copy of ``state``, field for field: nothing mutable in it is shared with ``state`` (the players and
    the lists are new; what they hold is frozen). By position: it runs for every step (``evolve``), and positional
    arguments build a struct several times faster than keywords."""
    work = object.__new__(Work)
    _thaw_into(work, state)
    return work


def _thaw_into(work: Work, state: State) -> None:
    """Every field of ``work`` from ``state`` (``thaw``; ``game_started`` starts the work over in place)."""
    players = [_thaw_player(p) for p in state.players]
    indexes = ({p.id: p for p in players}, {p.id: q.id for p, q in zip(players, players[::-1], strict=True)})
    Work.__init__(work, *(*_astuple(state), *indexes))  # by position; then the players and the draws, thawed
    work.players = players
    work.pending = list(state.pending)


def _thaw_player(p: PlayerState) -> PlayerWork:
    return PlayerWork(p.id, p.deck, p.clan, p.stronghold, p.sensei, p.honor, p.strength, p.production,
                      p.stronghold_bowed, p.gold, list(p.provinces), list(p.hand), list(p.dynasty), list(p.fate),
                      p.dynasty_discard, p.fate_discard, p.discard_dishonored, p.removed, list(p.cards), p.played,
                      p.eliminated, p.proclaimed, p.dynasty_discarded)


def freeze(work: Work) -> State:
    """The frozen ``State`` of ``work`` (the inverse of ``thaw``: ``freeze(thaw(s)) == s``)."""
    values = list(_state_values(work))
    values[_PLAYERS] = tuple([_freeze_player(p) for p in work.players])
    values[_PENDING] = tuple(work.pending)
    return State(*values)


def _freeze_player(p: PlayerWork) -> PlayerState:
    return PlayerState(p.id, p.deck, p.clan, p.stronghold, p.sensei, p.honor, p.strength, p.production,
                       p.stronghold_bowed, p.gold, tuple(p.provinces), tuple(p.hand), tuple(p.dynasty),
                       tuple(p.fate), p.dynasty_discard, p.fate_discard, p.discard_dishonored, p.removed,
                       tuple(p.cards), p.played, p.eliminated, p.proclaimed, p.dynasty_discarded)


STEPS: Steps[Work] = Steps("Legend of the Five Rings")
on = STEPS.on


@on(ArmyAssigned)
def _army_assigned(work: Work, event: ArmyAssigned) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.armies += (Army(player=event.player, side=event.side, battlefield=event.battlefield, units=event.units),)


@on(HonorChanged)
def _honor_changed(work: Work, event: HonorChanged) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.by_seat[event.player].honor = event.total


@on(CardDiscarded)
def _card_discarded(work: Work, event: CardDiscarded) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _take(p.hand, event.card)
    p.fate_discard += (event.card,)


@on(NothingDrawn)
def _nothing_drawn(work: Work, event: NothingDrawn) -> None:
    """R9: an empty deck draws nothing, and play goes on."""


@on(PlayerEliminated)
def _player_eliminated(work: Work, event: PlayerEliminated) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.by_seat[event.player].eliminated = True


@on(Conceded)
def _conceded(work: Work, event: Conceded) -> None:
    """game_ended follows."""
    work.quiet_since = work.turn  # R9: something happened this turn


# -- the game, the turn and its windows -----------------------------------------------------------------------


@on(GameStarted)
def _game_started(work: Work, event: GameStarted) -> None:
    """The state ``game_started`` makes, whatever came before it (only the count of events goes on)."""
    seq = work.seq
    _thaw_into(work, start_state(event))
    work.seq = seq


@on(GameEnded)
def _game_ended(work: Work, event: GameEnded) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.phase = "over"
    work.winner = event.winner
    work.end_reason = event.reason
    work.priority = None
    work.pending = []
    work.duel = None
    work.adjudication = event.adjudication


@on(TurnStarted)
def _turn_started(work: Work, event: TurnStarted) -> None:
    """The turn player's stronghold and cards straighten (``straightened`` lists them: every bowed one), its
    once-a-turn marks clear; in table mode each unseen face-down card of its provinces is entered as it turns face up
    (``reveal``)."""
    for q in work.players:
        q.gold = 0
    seat = event.player
    p = work.by_seat[seat]
    p.stronghold_bowed = p.proclaimed = p.dynasty_discarded = False
    p.played = ()
    cards = p.cards
    for card in cards:
        if card.bowed:
            p.cards = [_replace(c, bowed=False) if c.bowed else c for c in cards]
            break
    work.phase = "action"
    work.active = work.priority = seat
    work.turn = event.turn
    work.passes = 0
    work.acted = work.closed = False
    for pr in p.provinces:
        if pr.unseen:
            work.pending.append(Pending(player=seat, dest="reveal", province=pr.number))


@on(PhaseStarted)
def _phase_started(work: Work, event: PhaseStarted) -> None:
    for p in work.players:  # unused gold is lost at the end of the phase (§3.3)
        if p.gold:
            p.gold = 0
    phase = work.phase = event.phase
    work.closed = False
    work.priority = None
    if phase == "dynasty":  # the attack is over
        if work.modifiers:
            _expire(work, "battle")
        work.armies = ()
        work.battlefields = ()
        work.defender = None
        work.segment = ""
    elif phase == "end" and work.by_seat[event.player].fate:  # the end phase's draw
        work.pending.append(Pending(player=event.player, dest="hand"))


@on(TurnEnded)
def _turn_ended(work: Work, event: TurnEnded) -> None:
    if work.modifiers:
        _expire(work, "turn")
    work.by_seat[event.player].gold = 0
    work.phase = "start"
    work.active = event.next
    work.priority = None


@on(Passed)
def _passed(work: Work, event: Passed) -> None:
    window = event.window
    if window in WINDOWS_OF_TWO:
        if work.one_action_at_a_time:  # R6: one action or a pass each in turn; two passes in a row close it
            passes = work.passes + 1
            work.action_card = None
        else:  # l5r/1 (D3): a seat acted until it passed
            passes = 0 if work.acted else work.passes + 1
        work.acted = False
        if passes < 2:
            work.priority = work.others[event.player]
            work.passes = passes
        else:  # two passes in a row closed the window
            work.passes = 0
            if work.phase != "battle":
                work.closed = True
                work.priority = None
            elif work.segment == "engage":
                work.segment = "combat"
                work.priority = work.defender
            else:
                work.segment = "resolve"
                work.priority = None
    elif window == "maneuvers":
        if work.defender is not None and event.player != work.defender:
            work.priority = work.defender
        else:  # both sides assigned their armies: the battles, in order
            work.phase = "battle"
            work.battle = 0
            work.segment = "engage"
            work.priority = work.defender
            work.passes = 0
            work.acted = work.closed = False
    elif window in ("attack", "dynasty"):
        work.closed = True
    else:
        raise ValueError(f"no window {window!r}")


def _took_action(work: Work, seat: str, card: str) -> None:
    """An action in a window (attach, a ring, a strategy, a card's text): R6, the other seat's turn; an effect of the
    seat that just acted (``action_card``), or within a duel, changes no turn."""
    if work.priority is None:
        return
    if not work.one_action_at_a_time:
        work.acted = True  # l5r/1 (D3): a seat acted until it passed
    elif work.duel is None and seat == work.priority:
        work.acted = True
        work.passes = 0
        work.priority = work.others[seat]
        work.action_card = card


def _expire(work: Work, until: str) -> None:
    if work.modifiers:
        work.modifiers = tuple([m for m in work.modifiers if m.until != until])


# -- cards: drawn, laid, turned face up, played, discarded --------------------------------------------------


@on(CardDrawn)
def _card_drawn(work: Work, event: CardDrawn) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    fate = p.fate
    drawn = event.card if event.card is not None else fate[0]
    p.hand.append(drawn)
    try:  # _take, inline: the most frequent card event
        fate.remove(drawn)
    except ValueError:
        del fate[:1]
    del work.pending[:1]


@on(ProvinceFilled)
def _province_filled(work: Work, event: ProvinceFilled) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    if event.source == "unseen":  # table mode: laid face down unseen, entered when it turns face up
        _set_province(p.provinces, event.province, None, False, unseen=True)
    else:
        dynasty = p.dynasty
        laid = event.card if event.card is not None else dynasty[0]
        _set_province(p.provinces, event.province, laid, False)
        try:  # _take, inline
            dynasty.remove(laid)
        except ValueError:
            del dynasty[:1]
    del work.pending[:1]


@on(CardsRevealed)
def _cards_revealed(work: Work, event: CardsRevealed) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    provinces = p.provinces
    if event.table:  # one unseen card entered: it leaves the unseen pool
        del work.pending[:1]
        for shown in event.cards:
            _take(p.dynasty, shown.card)
    for shown in event.cards:  # face up: _set_province, inline for the usual place of each
        number = shown.province
        i = number - 1
        if i < len(provinces) and provinces[i].number == number:
            provinces[i] = Province(number=number, card=shown.card, face_up=True)
        else:
            _set_province(provinces, number, shown.card, True, unseen=False)
    if not event.discarded:
        return
    emptied = []
    for card in event.discarded:  # events (D2); a destroyed province's card (table)
        holding = next((pr.number for pr in provinces if pr.card == card), None)
        if holding is not None:
            _set_province(provinces, holding, None, False)
            emptied.append(holding)
        p.dynasty_discard += (card,)
    for number in emptied:
        _refill(work, p, number)


@on(CardRecruited)
def _card_recruited(work: Work, event: CardRecruited) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _set_province(p.provinces, event.province, None, False)
    p.gold -= event.gold
    p.cards.append(InPlay(id=event.card, bowed=cards_of(work).card(event.card).kind == "holding"))
    p.proclaimed = p.proclaimed or event.proclaimed
    if work.priority is not None:
        work.acted = True
    _refill(work, p, event.province)


@on(DynastyDiscarded)
def _dynasty_discarded(work: Work, event: DynastyDiscarded) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _set_province(p.provinces, event.province, None, False)
    p.dynasty_discard += (event.card,)
    p.dynasty_discarded = True
    _refill(work, p, event.province)


@on(GoldProduced)
def _gold_produced(work: Work, event: GoldProduced) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    card_id = event.card
    if card_id == p.stronghold:
        p.stronghold_bowed = True
    else:  # _change_card, inline: a holding bowed (a frequent event)
        cards = p.cards
        for i, card in enumerate(cards):
            if card.id == card_id:
                cards[i] = _replace(card, bowed=True)
                break
    p.gold += event.gold
    if work.priority is not None:
        work.acted = True


@on(CardAttached)
def _card_attached(work: Work, event: CardAttached) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _take(p.hand, event.card)
    p.gold -= event.gold
    p.cards.append(InPlay(id=event.card, on=event.to))
    _took_action(work, event.player, event.card)


@on(RingPlayed)
def _ring_played(work: Work, event: RingPlayed) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _take(p.hand, event.card)
    p.cards.append(InPlay(id=event.card))
    _took_action(work, event.player, event.card)


@on(StrategyPlayed)
def _strategy_played(work: Work, event: StrategyPlayed) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    p = work.by_seat[event.player]
    _take(p.hand, event.card)
    p.gold -= event.gold
    p.fate_discard += (event.card,)
    p.played += (event.card,)
    _took_action(work, event.player, event.card)


def _take(pile: list[str], card: str) -> None:
    """``card`` leaves ``pile``. A copy of a game whose hidden cards were replaced (a view's test of what it may not
    see) may name a card that is not there: one card still leaves, so every count stays as recorded."""
    try:
        pile.remove(card)
    except ValueError:
        del pile[:1]


def _set_province(provinces: list[Province], number: int, card: str | None, face_up: bool,
                  unseen: bool | None = None) -> None:
    """Province ``number`` now holds ``card`` (None: empty), face up or down; ``unseen``: None keeps it."""
    i = number - 1  # where it lies while no province left of it is destroyed
    if i >= len(provinces) or provinces[i].number != number:
        i = next((n for n, pr in enumerate(provinces) if pr.number == number), -1)
        if i < 0:
            return
    provinces[i] = Province(number=number, card=card, face_up=face_up,
                            unseen=provinces[i].unseen if unseen is None else unseen)


def _change_card(p: PlayerWork, instance: str, changes: dict[str, bool]) -> None:
    """The card ``instance`` in play, bowed or straightened, dishonoured or restored (a card not in play: nothing)."""
    cards = p.cards
    for i, card in enumerate(cards):
        if card.id == instance:
            cards[i] = _replace(card, **changes)
            return


def _refill(work: Work, p: PlayerWork, number: int) -> None:
    """A province emptied is refilled face down from the dynasty deck (§3.3), when the deck has a card left for it
    (refills already awaited count: R9, an empty deck draws nothing)."""
    seat = p.id
    left = len(p.dynasty)  # dynasty_left, less the refills already awaited: in one pass over the draws
    for pr in p.provinces:
        if pr.unseen:
            left -= 1
    for x in work.pending:
        if x.player == seat and (x.dest == "province" or x.dest == "discard"):
            left -= 1
    if left > 0:
        work.pending.append(Pending(player=seat, dest="province", province=number))


# -- cards leaving play -----------------------------------------------------------------------------------------


def _destroy(work: Work, destroyed: Iterable[str], removed: Iterable[str] = ()) -> None:
    """Cards leave play: destroyed ones go to their owner's discard piles (personalities and holdings: dynasty;
    attachments: fate), a dishonoured one lying dishonoured there (§4); ``removed`` ones to the removed-from-game area
    (R9). A personality's attachments leave play with it, to the discard pile."""
    out = set(removed)
    gone = set(destroyed) | out
    if not gone:
        return
    for p in work.players:
        attached = {c.id for c in p.cards if c.on in gone}
        lost = [c for c in p.cards if c.id in gone or c.id in attached]
        if not lost:
            continue
        discarded = [c for c in lost if c.id not in out]
        p.cards = [c for c in p.cards if c.id not in gone and c.id not in attached]
        card = cards_of(work).card
        p.dynasty_discard += tuple(c.id for c in discarded if card(c.id).dynasty)
        p.fate_discard += tuple(c.id for c in discarded if card(c.id).fate)
        p.discard_dishonored += tuple(c.id for c in discarded if c.dishonored)
        p.removed += tuple(c.id for c in lost if c.id in out)
    _sent_home(work, gone)
    work.modifiers = tuple(m for m in work.modifiers if m.target not in gone)


def _sent_home(work: Work, personalities: set[str]) -> None:
    """Personalities taken out of their armies, home as they are (an effect's ``send_home``; a duel's survivors, R7;
    the destroyed)."""
    if personalities and work.armies:
        work.armies = tuple(_replace(a, units=tuple(u for u in a.units if u not in personalities))
                            for a in work.armies)


def _removed(work: Work, target: str) -> None:
    """A card removed from the game (R9): from play (its attachments to the discard pile), a hand or a discard
    pile, to its owner's removed-from-game area."""
    p = work.by_seat[owner_of(target)]
    if any(c.id == target for c in p.cards):
        _destroy(work, (), (target,))
        return
    if target in p.hand:
        p.hand.remove(target)
    else:
        p.dynasty_discard = tuple(c for c in p.dynasty_discard if c != target)
        p.fate_discard = tuple(c for c in p.fate_discard if c != target)
        p.discard_dishonored = tuple(c for c in p.discard_dishonored if c != target)
    p.removed += (target,)


# -- what a card's text did (effect) ----------------------------------------------------------------------------

CARD_STATES = {"bow": {"bowed": True}, "straighten": {"bowed": False}, "dishonor": {"dishonored": True},
               "restore": {"dishonored": False}}


@on(EffectApplied)
def _effect(work: Work, event: EffectApplied) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    kind, target, amount = event.kind, event.target, event.amount
    if kind in ("force", "chi", "honor", "duel", "province"):  # a modifier (a province's: "<seat>:<number>")
        work.modifiers += (Modifier(target=target, stat=kind, amount=amount, until=event.until),)
    elif kind == "gold":
        work.by_seat[event.player].gold += amount
    elif kind in CARD_STATES:
        p = work.by_seat[owner_of(target)]
        if target == p.stronghold:
            p.stronghold_bowed = kind == "bow"
        else:
            _change_card(p, target, CARD_STATES[kind])
    elif kind == "send_home":
        _sent_home(work, {target})
    elif kind == "draw":
        drawn = min(amount, fate_left(work, target))
        work.pending += [Pending(player=target, dest="hand")] * drawn
    elif kind == "discard":
        p = work.by_seat[owner_of(target)]
        _take(p.hand, target)
        p.fate_discard += (target,)
    elif kind == "remove":
        _removed(work, target)
    # family_honor: honor_changed follows; destroy, eliminate, win: the events that follow say it
    _destroy(work, event.destroyed)
    _took_action(work, event.player, event.card)


# -- the attack -------------------------------------------------------------------------------------------------


@on(AttackDeclared)
def _attack_declared(work: Work, event: AttackDeclared) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.phase = "maneuvers"
    work.defender = event.defender
    work.battlefields = event.battlefields
    work.priority = event.player
    work.passes = 0
    work.armies = ()
    work.closed = False


@on(AttackEnded)
def _attack_ended(work: Work, event: AttackEnded) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    work.armies = ()
    work.closed = True
    work.segment = ""
    work.priority = None


@on(BattleResolved)
def _battle_resolved(work: Work, event: BattleResolved) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    field = event.battlefield
    if event.restored:
        restored = set(event.restored)
        for seat in (event.attacker, event.defender):
            p = work.by_seat[seat]
            p.cards = [_replace(c, dishonored=False) if c.id in restored else c for c in p.cards]
    if event.destroyed:
        _destroy(work, event.destroyed)
    if event.province_destroyed:
        d = work.by_seat[event.defender]
        if any(pr.unseen for pr in d.provinces if pr.number == field):  # its card is entered as it is discarded
            work.pending.append(Pending(player=d.id, dest="discard", province=field))
        d.provinces = [pr for pr in d.provinces if pr.number != field]
        d.dynasty_discard += event.discarded
    if event.returned_bowed:
        bowed = set(event.returned_bowed)
        a = work.by_seat[event.attacker]
        a.cards = [_replace(c, bowed=True) if c.id in bowed else c for c in a.cards]
    armies = work.armies
    for army in armies:
        if army.side == "attacker" and army.battlefield == field:  # the attackers here go home
            work.armies = tuple([x for x in armies if not (x.side == "attacker" and x.battlefield == field)])
            break
    if work.modifiers:
        _expire(work, "battle")
    if work.battle + 1 < len(work.battlefields):  # the next battlefield
        work.battle += 1
        work.segment = "engage"
        work.priority = work.defender
        work.passes = 0
        work.acted = False
    else:
        work.segment = "over"
        work.priority = None


# -- the duel (§5) ----------------------------------------------------------------------------------------------


@on(DuelChallenged)
def _duel_challenged(work: Work, event: DuelChallenged) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    resume = work.others[event.player] if work.one_action_at_a_time else work.priority  # R6: the seat's action
    duel = Duel(seat=event.player, challenger=event.challenger, challenged=event.challenged, stat=event.stat,
                card=event.card, destroy_loser=event.destroy_loser, resume=resume)
    work.duel = _replace(duel, next=next_focus(duel))


@on(DuelFocused)
def _duel_focused(work: Work, event: DuelFocused) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    duel = work.duel
    assert duel is not None
    p = work.by_seat[event.player]
    card = event.card
    if event.source == "hand":
        assert card is not None
        _take(p.hand, card)
    elif event.unseen:  # table mode: laid unseen, among the unseen fate cards until the reveal
        card = None
    else:
        card = card if card is not None else p.fate[0]
        _take(p.fate, card)
    duel = _replace(duel, focuses=(*duel.focuses, Focus(player=event.player, source=event.source, card=card)))
    work.duel = _replace(duel, next=next_focus(duel, event.player))


@on(DuelStruck)
def _duel_struck(work: Work, event: DuelStruck) -> None:
    """Both struck (or focused four times): the duel resolves; in table mode each focus card laid unseen is entered
    at the reveal first."""
    work.quiet_since = work.turn  # R9: something happened this turn
    duel = work.duel
    assert duel is not None
    work.duel = _replace(duel, next=None)
    work.pending += [Pending(player=f.player, dest="focus") for f in duel.focuses if f.card is None]


@on(FocusRevealed)
def _focus_revealed(work: Work, event: FocusRevealed) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    duel = work.duel
    assert duel is not None
    focuses = list(duel.focuses)
    i = next(i for i, f in enumerate(focuses) if f.player == event.player and f.card is None)
    focuses[i] = _replace(focuses[i], card=event.card)
    p = work.by_seat[event.player]
    _take(p.fate, event.card)
    work.duel = _replace(duel, focuses=tuple(focuses))
    del work.pending[:1]


@on(DuelResolved)
def _duel_resolved(work: Work, event: DuelResolved) -> None:
    work.quiet_since = work.turn  # R9: something happened this turn
    duel = work.duel
    assert duel is not None
    for shown in event.revealed:  # the focus cards as revealed (§5.3), discarded
        work.by_seat[shown.player].fate_discard += (shown.card,)
    _sent_home(work, set(event.returned_home))  # R7
    _destroy(work, event.destroyed)
    work.modifiers = tuple([m for m in work.modifiers if m.stat != "duel"])
    work.duel = None
    work.priority = duel.resume
    work.passes = 0
    work.acted = True
    work.action_card = (duel.card or duel.challenger) if work.one_action_at_a_time else None


STEPS.check(L5REvent)
# ``apply`` is the steps above (engine.steps: it counts the event, then runs its step): it trusts its input and never
# re-runs a rule (``decide`` checked it). R9: every step but those of the events that leave a round quiet
# (``QUIET_EVENTS``) and of ``game_started`` marks the turn it happened in first (``quiet_since``,
# ``rules.is_stalled``; no step changes the turn but ``turn_started``'s); a test holds the marking steps to the events
# that are not quiet.
apply = STEPS.apply


FOLDING: Folding[State, Work, L5REvent] = Folding(initial_state, thaw, apply, freeze)
evolve = FOLDING.evolve
fold = FOLDING.fold


def state_to_builtins(state: State) -> dict[str, Any]:
    book = state.catalogue  # the game's cards are served by GET /catalogues/{id}: a state names its catalogue only
    data: dict[str, Any] = msgspec.to_builtins(state if book is None else _replace(state, catalogue=None))
    del data["catalogue"]
    if book is not None:  # a game on the default catalogue shows the state it showed before
        data["catalogue"] = book.id
    data["to_act"] = list(awaited(state))
    if state.phase == "over":
        data["winner"] = state.winner or "draw"  # the contract's winner: a draw reads "draw"
    return data


__all__ = ["MAX_FOCUS", "QUIET_EVENTS", "Army", "Duel", "Focus", "InPlay", "Modifier", "Pending", "PlayerState",
           "Province", "State", "awaited", "deck_ranks", "evolve", "focus_count", "fold",
           "initial_state", "is_quiet", "next_focus", "start_state", "state_to_builtins", "top"]
