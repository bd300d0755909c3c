"""The state of an Art of War game and the one meaning of every event: ``apply`` on a working state (``Work``),
from which ``engine.folding.Folding`` derives ``evolve`` and ``fold`` (both trust their events).

Frozen msgspec Structs of tuples. Per player: hand, deck (the cards left, in deck-list order; in a sealed game the
seed orders the draws, ``top``), the standby queue (first = oldest), kingdom, graveyard and the battlefield
(``field``: occupied squares only, in square order). ``chain`` holds an attack or support and the answers to it
(R3) until it resolves; ``pending`` the draws a table must enter; ``conscript`` a player deploying after its
battlefield emptied (§6).

``phase``: setup | redraw | deploy | turn | over.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import msgspec

from engine.art_of_war.catalogue import SQUARES, CardBook, book_of, instances, kind_of
from engine.folding import Folding
from engine.steps import Steps
from events import Adjudication
from events.art_of_war import (
    Arranged,
    ArtOfWarEvent,
    AttackDeclared,
    BattleDeclared,
    CardDrawn,
    ChainResolved,
    Conceded,
    Conscripted,
    ConscriptionStarted,
    Damaged,
    DeckRecord,
    Deployed,
    Entered,
    GameEnded,
    GameStarted,
    KingsTaken,
    Moved,
    Passed,
    RedrawDecided,
    SeatRecord,
    SupportDeclared,
    TurnEnded,
    TurnStarted,
)

replace = msgspec.structs.replace


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    upright: bool = True
    damage: int = 0  # this turn (§5)
    hits: int = 0  # damage instances this turn (R2)
    attacked: bool = False


class Slot(msgspec.Struct, frozen=True):
    square: str
    unit: Unit


class PlayerState(msgspec.Struct, frozen=True):
    id: str
    deck_name: str
    king: str  # instance
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    standby: tuple[str, ...] = ()
    kingdom: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    field: tuple[Slot, ...] = ()
    redraw: str | None = None  # kept | redrawn (§3.3, once)
    deployed: bool = False
    entered: bool = False  # this turn (§4: entry once a turn)

    def unit_at(self, square: str) -> Unit | None:
        for slot in self.field:
            if slot.square == square:
                return slot.unit
        return None


class Link(msgspec.Struct, frozen=True, kw_only=True):
    """One link of a chain: the attack or support that started it, or an answer to the link below (R3)."""

    kind: str  # attack | support
    player: str
    card: str
    effect: str | None = None  # a support's effect
    square: str | None = None
    target: str | None = None
    to: str | None = None
    value: int = 0


class State(msgspec.Struct, frozen=True):
    seq: int = 0
    phase: str = "setup"
    mode: str = "sealed"
    seats: tuple[SeatRecord, ...] = ()
    players: tuple[PlayerState, ...] = ()
    first: str = ""
    active: str = ""
    turn: int = 0
    action: str | None = None  # arranged | battle (§4.3: one of them a turn)
    started: bool = False  # the turn of ``active`` has begun (turn_started; turn_ended clears it)
    supports: int = 0  # SOLDIER supports of this turn (+1 attack to every unit of the turn player)
    chain: tuple[Link, ...] = ()
    pending: tuple[str, ...] = ()  # seats whose draw a table must enter
    conscript: str | None = None  # the seat deploying after its battlefield emptied (§6)
    seed: int | None = None
    decks: tuple[DeckRecord, ...] = ()
    reshuffled: tuple[str, ...] = ()  # seats that redrew (their decks' order after the reshuffle)
    winner: str | None = None
    end_reason: str | None = None
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)
    catalogue: CardBook | None = None  # the game's cards (issue 30; shared, never copied); None: the built-in ones

    def player(self, seat: str) -> PlayerState:
        for p in self.players:
            if p.id == seat:
                return p
        raise KeyError(seat)

    def index(self, seat: str) -> int:
        return 0 if seat == self.players[0].id else 1

    def other(self, seat: str) -> str:
        return self.players[1].id if seat == self.players[0].id else self.players[0].id


def initial_state() -> State:
    return _INITIAL


_INITIAL = State()  # frozen: every game starts from the same one


def awaited(state: State) -> tuple[str, ...]:
    if state.phase in ("setup", "over"):
        return ()
    if state.pending:
        return (state.pending[0],)
    if state.conscript is not None:
        return (state.conscript,)
    if state.chain:
        return (state.other(state.chain[-1].player),)
    if state.phase == "redraw":
        undecided = [p.id for p in _in_order(state) if p.redraw is None]
        return (undecided[0],) if undecided else (state.first,)
    if state.phase == "deploy":
        waiting = [p.id for p in _in_order(state) if not p.deployed]
        return (waiting[0],) if waiting else (state.first,)
    return (state.active,)


def _in_order(state: State) -> list[PlayerState]:
    return sorted(state.players, key=lambda p: p.id != state.first)


# -- the seed's order ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def deck_ranks(seed: int, decks: tuple[DeckRecord, ...], reshuffled: tuple[str, ...]) -> dict[str, int]:
    """Each card's place in its shuffled deck (sealed): one generator from the seed for the first shuffle of both
    decks (p1's, then p2's); a redraw reshuffles the returned cards into the rest with a generator of its own."""
    from engine.prng import SplitMix64, shuffle

    rng = SplitMix64(seed)
    ranks: dict[str, int] = {}
    for deck in decks:
        for i, inst in enumerate(shuffle(instances(deck.player, deck.cards), rng)):
            ranks[inst] = i
    for n, deck in enumerate(decks):
        if deck.player in reshuffled:
            again = SplitMix64(seed ^ (0xA5A5_0000 + n + 1))
            for i, inst in enumerate(shuffle(instances(deck.player, deck.cards), again)):
                ranks[inst] = i
    return ranks


def top(state: State, seat: str, count: int = 1) -> tuple[str, ...]:
    """The cards a draw from ``seat``'s deck takes now (sealed: the first left in the seed's order)."""
    deck = state.player(seat).deck
    if state.seed is None:
        return deck[:count]
    ranks = deck_ranks(state.seed, state.decks, tuple(s for s in state.reshuffled if s == seat))
    return tuple(sorted(deck, key=ranks.__getitem__)[:count])



# -- reveals ------------------------------------------------------------------------------------------------------


def revealed(source: list[str], hidden: list[str], card: str) -> None:
    """A card leaves the hidden zone ``source`` (a hand, a deck) face up as ``card``, in place. R7: a card revealed
    from a deck without a seeded order gets the lowest id of its type that no public zone holds (``reveal_id``),
    which the card leaving need not carry: then the first card of its type in ``source`` leaves, and the hidden card
    that carried ``card`` (in ``hidden``, the player's other hidden zone) takes over that card's id. Cards of a
    type are alike, so nothing but their names changes. (A copy of a game whose hidden cards were varied may name
    a type ``source`` lacks: its first card leaves.)"""
    try:
        source.remove(card)  # the card itself (every sealed game: the fast path)
        return
    except ValueError:
        pass
    kind = kind_of(card)
    same = next((c for c in source if kind_of(c) == kind), None)
    if same is None:
        del source[:1]
        return
    source.remove(same)
    if card in hidden:
        hidden[hidden.index(card)] = same




def public_ids(state: State, seat: str) -> set[str]:
    """``seat``'s cards that lie face up (battlefields, standby queues, kingdoms, graveyards: a captured card lies in
    the capturer's kingdom)."""
    prefix = seat + "."
    found: set[str] = set()
    for p in state.players:
        for zone in (p.standby, p.kingdom, p.graveyard, tuple(s.unit.card for s in p.field)):
            found.update(c for c in zone if c.startswith(prefix))
    return found


def numbers_reveals(state: State) -> bool:
    """R7: whether a card revealed from a hidden zone gets its id then (``reveal_id``): in every game whose deck has
    no seeded order (table mode, a game from a position). With a seeded order an id is the card's place in the deck
    list, which the hidden shuffle keeps from the other seat."""
    return state.seed is None


def reveal_id(state: State, seat: str, kind: str, taken: Iterable[str] = ()) -> str:
    """R7: the id a card of ``kind`` revealed from ``seat``'s hand or deck gets: its type's lowest copy number that no
    public zone holds (nor ``taken``, the ids revealed with it). Public zones alone decide it, so it says nothing of
    which cards of the type are still hidden."""
    used = public_ids(state, seat) | set(taken)
    n = 1
    while f"{seat}.{kind}.{n}" in used:
        n += 1
    return f"{seat}.{kind}.{n}"




# -- the working state -----------------------------------------------------------------------------------------------
#
# ``thaw`` copies a State's few scalar fields and keeps its frozen players; a player's mutable part (``PlayerWork``:
# lists, the battlefield as a dict) is made the first time an event changes that player (``_part``). So ``evolve``
# (thaw, one event, freeze) thaws and freezes only the player the event changes, and ``fold`` thaws each player once.


class PlayerWork:
    """A ``PlayerState``'s fields, mutable: the zones as lists (a deck too: a copy whose hidden cards were varied may
    name one card twice, and the public counts must not tell), the battlefield as a dict by square (its units stay
    frozen ``Unit``s, replaced when they change). ``tilted``: some unit may be sideways or have attacked (so a turn's
    start has something to stand up)."""

    __slots__ = ("deck", "deck_name", "deployed", "entered", "field", "graveyard", "hand", "id", "king", "kingdom",
                 "redraw", "standby", "tilted")
    id: str
    deck_name: str
    king: str
    hand: list[str]
    deck: list[str]
    standby: list[str]
    kingdom: list[str]
    graveyard: list[str]
    field: dict[str, Unit]
    redraw: str | None
    deployed: bool
    entered: bool
    tilted: bool


class Work:
    """A ``State``'s fields, mutable. ``players`` stay the frozen ones thawed from; ``parts`` holds, by seat, the
    working part of each player changed since. ``damaged``: some unit may carry damage (so a turn's end has
    something to clear; None: not known yet)."""

    __slots__ = ("action", "active", "adjudication", "catalogue", "chain", "conscript", "damaged", "decks",
                 "end_reason", "first", "mode", "parts", "pending", "phase", "players", "reshuffled", "seats", "seed",
                 "seq", "started", "supports", "turn", "winner")
    seq: int
    phase: str
    mode: str
    seats: tuple[SeatRecord, ...]
    players: tuple[PlayerState, ...]
    parts: dict[str, PlayerWork]
    first: str
    active: str
    turn: int
    action: str | None
    started: bool
    supports: int
    chain: tuple[Link, ...]
    pending: tuple[str, ...]
    conscript: str | None
    seed: int | None
    decks: tuple[DeckRecord, ...]
    reshuffled: tuple[str, ...]
    winner: str | None
    end_reason: str | None
    adjudication: Adjudication | None
    catalogue: CardBook | None
    damaged: bool | None


def _load(w: Work, s: State) -> None:
    """Every field of ``w`` from ``s`` (its tuples and frozen structs are shared: nothing of them is mutable)."""
    w.seq, w.phase, w.mode, w.seats, w.players, w.parts = s.seq, s.phase, s.mode, s.seats, s.players, {}
    w.first, w.active, w.turn, w.action, w.started = s.first, s.active, s.turn, s.action, s.started
    w.supports, w.chain, w.pending, w.conscript = s.supports, s.chain, s.pending, s.conscript
    w.seed, w.decks, w.reshuffled = s.seed, s.decks, s.reshuffled
    w.winner, w.end_reason, w.adjudication, w.catalogue = s.winner, s.end_reason, s.adjudication, s.catalogue
    w.damaged = None


def thaw(state: State) -> Work:
    """A working copy of ``state``: changing it never changes ``state``."""
    w = Work()
    _load(w, state)
    return w


def _part(w: Work, seat: str) -> PlayerWork:
    """``seat``'s working part: thawed from its frozen player the first time an event changes it."""
    part = w.parts.get(seat)
    if part is None:
        p = next(q for q in w.players if q.id == seat)
        part = w.parts[seat] = PlayerWork()
        part.id, part.deck_name, part.king = p.id, p.deck_name, p.king
        part.hand, part.deck, part.standby = list(p.hand), list(p.deck), list(p.standby)
        part.kingdom, part.graveyard = list(p.kingdom), list(p.graveyard)
        part.field = {s.square: s.unit for s in p.field}
        part.redraw, part.deployed, part.entered = p.redraw, p.deployed, p.entered
        part.tilted = any(not s.unit.upright or s.unit.attacked for s in p.field)
    return part


def _freeze_player(d: PlayerWork) -> PlayerState:
    field = d.field
    return PlayerState(d.id, d.deck_name, d.king, tuple(d.hand), tuple(d.deck), tuple(d.standby), tuple(d.kingdom),
                       tuple(d.graveyard), tuple([Slot(sq, field[sq]) for sq in SQUARES if sq in field]), d.redraw,
                       d.deployed, d.entered)


def freeze(w: Work) -> State:
    """The frozen ``State`` of ``w`` (a battlefield in square order). Positional arguments, in the fields' order:
    a frozen Struct is made several times faster so than by keywords (``evolve`` freezes once an event)."""
    parts = w.parts
    players = tuple([_freeze_player(parts[p.id]) if p.id in parts else p for p in w.players]) if parts else w.players
    return State(w.seq, w.phase, w.mode, w.seats, players, w.first, w.active, w.turn, w.action, w.started, w.supports,
                 w.chain, w.pending, w.conscript, w.seed, w.decks, w.reshuffled, w.winner, w.end_reason,
                 w.adjudication, w.catalogue)


# -- apply: what every event means -------------------------------------------------------------------------------


def start_state(event: GameStarted, seq: int = 1) -> State:
    """The state ``game_started`` begins (the ``seq``-th event of its stream)."""
    if event.position is not None:
        return replace(_from_position(event), seq=seq)
    players = tuple(PlayerState(id=d.player, deck_name=d.name, king=f"{d.player}.{d.king}.1",
                                deck=instances(d.player, d.cards)) for d in event.decks)
    second = next(d.player for d in event.decks if d.player != event.first)
    return State(seq=seq, phase="redraw", mode=event.variant.mode, seats=event.seats, players=players,
                 first=event.first, active=event.first, seed=event.seed, decks=event.decks,
                 pending=(event.first,) * 3 + (second,) * 3, catalogue=book_of(event.catalogue))


def _numbering(seat: str) -> Callable[[str], str]:
    """Instance names for one player's cards, copies numbered in the order asked for."""
    count: dict[str, int] = {}

    def inst(card: str) -> str:
        count[card] = count.get(card, 0) + 1
        return f"{seat}.{card}.{count[card]}"

    return inst


HAND_FIRST = "art-of-war/1"  # the rules version that numbered a position's hand before its public zones


def _from_position(event: GameStarted) -> State:
    """A game started from a position: copies numbered in the order the position names the cards: its public zones
    first (field, standby, kingdom, graveyard), then hand and deck (R7: a public card's id says nothing of the hidden
    ones; games recorded under ``art-of-war/1`` numbered the hand first and replay so); the decks drawn top first."""
    position = event.position
    assert position is not None
    players = []
    for d in event.decks:
        spec = next(s for s in position.players if s.player == d.player)
        inst = _numbering(d.player)

        hand_first = event.rules_version == HAND_FIRST
        hand = tuple(inst(c) for c in spec.hand) if hand_first else ()
        field = tuple(Slot(square=u.square, unit=Unit(card=inst(u.card), upright=u.upright))
                      for u in sorted(spec.field, key=lambda u: SQUARES.index(u.square)))
        standby = tuple(inst(c) for c in spec.standby)
        kingdom = tuple(inst(c) for c in spec.kingdom)
        graveyard = tuple(inst(c) for c in spec.graveyard)
        if not hand_first:
            hand = tuple(inst(c) for c in spec.hand)
        players.append(PlayerState(
            id=d.player, deck_name=d.name, king=f"{d.player}.{d.king}.1", field=field, hand=hand, standby=standby,
            kingdom=kingdom, graveyard=graveyard, deck=tuple(inst(c) for c in spec.deck), redraw="kept",
            deployed=True))
    return State(phase="turn", mode=event.variant.mode, seats=event.seats, players=tuple(players),
                 first=event.first, active=position.active, turn=position.turn, started=True, decks=event.decks,
                 catalogue=book_of(event.catalogue))


def _remove(items: list[str], item: str) -> None:
    """``items`` less ``item`` (a copy whose hidden cards were varied may name another: the first leaves)."""
    try:
        items.remove(item)
    except ValueError:
        del items[:1]


def _move(field: dict[str, Unit], moves: tuple[tuple[str, str], ...]) -> None:
    """Units moved at once (a swap is two moves)."""
    moved = {a: field[a] for a, _ in moves if a in field}
    for a in moved:
        del field[a]
    for a, b in moves:
        if a in moved:
            field[b] = moved[a]


def taken_to(result: str, to: str | None) -> str:
    """Where a unit taken off the battlefield went: ``to`` (every ``damaged`` event since v2 says), else by its
    result."""
    return to or ("kingdom" if result == "captured" else "graveyard")


@functools.lru_cache(maxsize=256)
def _list_order(player: str, cards: tuple[str, ...]) -> Mapping[str, int]:
    """Each card instance's place in ``player``'s deck list (cached: decks repeat across games; read only)."""
    return MappingProxyType({card: i for i, card in enumerate(instances(player, cards))})


STEPS: Steps[Work] = Steps("Art of War")
on = STEPS.on


@on(CardDrawn)
def _card_drawn(w: Work, e: CardDrawn) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    card = e.card if e.card is not None else (p.deck[0] if p.deck else "")
    p.hand.append(card)
    try:
        p.deck.remove(card)
    except ValueError:  # a copy whose hidden cards were varied (_remove)
        del p.deck[:1]
    w.pending = w.pending[1:]


@on(RedrawDecided)
def _redraw_decided(w: Work, e: RedrawDecided) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    if not (e.again and e.hand is not None):
        p.redraw = "kept"
        return
    deck = p.deck + p.hand
    for card in e.hand:
        _remove(deck, card)
    cards = next((d.cards for d in w.decks if d.player == e.player), ())
    order = _list_order(e.player, cards)  # the deck kept in list order
    p.hand = list(e.hand)
    try:
        p.deck = sorted(deck, key=order.__getitem__)
    except KeyError:  # a copy whose hidden cards were varied: a card not of the deck list goes last
        last = len(order)
        p.deck = sorted(deck, key=lambda card: order.get(card, last))
    p.redraw = "redrawn"
    w.reshuffled = (*w.reshuffled, e.player)


@on(KingsTaken)
def _kings_taken(w: Work, e: KingsTaken) -> None:
    for q in w.players:
        p = _part(w, q.id)
        p.hand.append(p.king)
    w.phase = "deploy"


@on(Deployed)
def _deployed(w: Work, e: Deployed) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    revealed(p.hand, p.deck, e.card)
    revealed(p.hand, p.deck, e.standby)
    revealed(p.deck, p.hand, e.kingdom)
    p.standby.append(e.standby)
    p.kingdom.append(e.kingdom)
    p.deployed = True
    p.field[e.square] = Unit(card=e.card)


@on(TurnStarted)
def _turn_started(w: Work, e: TurnStarted) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    if p.tilted:  # stand every unit up
        field = p.field
        for square, u in field.items():
            if not u.upright or u.attacked:
                field[square] = replace(u, upright=True, attacked=False)
        p.tilted = False
    p.entered = False
    w.pending = (e.player,) if p.deck else ()
    w.phase = "turn"
    w.active = e.player
    w.turn = e.turn
    w.action = None
    w.supports = 0
    w.started = True


@on(Arranged)
def _arranged(w: Work, e: Arranged) -> None:
    """§4.3: ``place`` the standby head onto an empty square; ``rotate`` the unit to the back of the queue and the
    head into its square; ``shift`` a unit (a swap when ``to`` is occupied); ``play`` a hand card onto the square,
    the unit there (if any) back to hand."""
    p = w.parts.get(e.player) or _part(w, e.player)
    field, square = p.field, e.square
    if e.how == "place":
        field[square] = Unit(card=p.standby.pop(0))
    elif e.how == "rotate":
        there = field[square]
        field[square] = Unit(card=p.standby.pop(0))
        p.standby.append(there.card)
    elif e.how == "shift":
        to = e.to or ""
        _move(field, ((square, to), (to, square)) if to in field else ((square, to),))
    else:
        card = e.card or ""
        left = field.get(square)
        revealed(p.hand, p.deck, card)
        if left is not None:
            p.hand.append(left.card)
        field[square] = Unit(card=card)
    w.action = "arranged"


@on(AttackDeclared)
def _attack_declared(w: Work, e: AttackDeclared) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    attacker = p.field.get(e.square)
    if attacker is not None:
        p.field[e.square] = replace(attacker, upright=False, attacked=True)
        p.tilted = True
    w.chain = (*w.chain, Link(kind="attack", player=e.player, card=e.unit, target=e.target, square=e.square,
                              value=e.value))


@on(SupportDeclared)
def _support_declared(w: Work, e: SupportDeclared) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    revealed(p.hand, p.deck, e.card)
    p.standby.append(e.card)
    w.chain = (*w.chain, Link(kind="support", player=e.player, card=e.card, effect=e.effect, target=e.target,
                              square=e.square, to=e.to))


@on(ChainResolved)
def _chain_resolved(w: Work, e: ChainResolved) -> None:
    base = w.chain[0] if w.chain else None
    w.chain = ()
    if base is not None and e.effective and e.effective[0] and base.kind == "support" and base.effect == "soldier":
        w.supports += 1


@on(Damaged)
def _damaged(w: Work, e: Damaged) -> None:
    p = w.parts.get(e.owner) or _part(w, e.owner)
    hit = p.field.get(e.square)
    if hit is None:
        return
    if e.result == "damaged":
        p.field[e.square] = replace(hit, damage=e.total, hits=hit.hits + 1)
        w.damaged = True
        return
    del p.field[e.square]
    if taken_to(e.result, e.to) == "graveyard":
        p.graveyard.append(hit.card)
    else:
        (w.parts.get(e.by) or _part(w, e.by)).kingdom.append(hit.card)


@on(Entered)
def _entered(w: Work, e: Entered) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    revealed(p.hand, p.deck, e.card)
    p.kingdom.append(e.card)
    p.entered = True


@on(Conscripted)
def _conscripted(w: Work, e: Conscripted) -> None:
    p = w.parts.get(e.player) or _part(w, e.player)
    _remove(p.standby if e.source == "standby" else p.kingdom, e.card)
    p.field[e.square] = Unit(card=e.card)
    if len(p.field) >= 2:
        w.conscript = None


@on(TurnEnded)
def _turn_ended(w: Work, e: TurnEnded) -> None:
    if w.damaged is not False:  # clear the turn's damage (§5)
        for q in w.players:
            if q.id not in w.parts and not any(s.unit.damage or s.unit.hits for s in q.field):
                continue
            field = _part(w, q.id).field
            for square, u in field.items():
                if u.damage or u.hits:
                    field[square] = replace(u, damage=0, hits=0)
        w.damaged = False
    w.active = e.next
    w.supports = 0
    w.action = None
    w.started = False


@on(GameEnded)
def _game_ended(w: Work, e: GameEnded) -> None:
    w.phase, w.winner, w.end_reason, w.adjudication = "over", e.winner, e.reason, e.adjudication
    w.chain, w.pending, w.conscript = (), (), None


@on(GameStarted)
def _game_started(w: Work, e: GameStarted) -> None:
    _load(w, start_state(e, w.seq))


@on(Passed)
def _passed(w: Work, e: Passed) -> None:
    """The chain goes on: what follows says how."""


@on(Conceded)
def _conceded(w: Work, e: Conceded) -> None:
    """The game_ended that follows says the rest."""


@on(BattleDeclared)
def _battle_declared(w: Work, e: BattleDeclared) -> None:
    w.action = "battle"


@on(Moved)
def _moved(w: Work, e: Moved) -> None:
    _move((w.parts.get(e.player) or _part(w, e.player)).field, e.moves)


@on(ConscriptionStarted)
def _conscription_started(w: Work, e: ConscriptionStarted) -> None:
    w.conscript = e.player


STEPS.check(ArtOfWarEvent)
# ``apply``: ``event`` happened, change ``w`` accordingly: the steps above (engine.steps: the event counted, then its
# step; trusting the event, never re-running a rule).
apply = STEPS.apply


FOLDING: Folding[State, Work, ArtOfWarEvent] = Folding(initial_state, thaw, apply, freeze)
evolve = FOLDING.evolve
fold = FOLDING.fold


def state_to_builtins(state: State) -> dict[str, Any]:
    book = state.catalogue  # the game's cards are served by GET /catalogues/{id}: a state names its catalogue only
    data: dict[str, Any] = msgspec.to_builtins(state if book is None else replace(state, catalogue=None))
    del data["catalogue"]
    if book is not None:  # a game on the default catalogue shows the state it showed before
        data["catalogue"] = book.id
    data["to_act"] = list(awaited(state))
    if state.phase == "over":
        data["winner"] = state.winner or "draw"  # the contract's winner: a draw reads "draw"
    return data


__all__ = ["FOLDING", "Link", "PlayerState", "PlayerWork", "Slot", "State", "Unit", "Work", "apply", "awaited",
           "deck_ranks", "evolve", "fold", "freeze", "initial_state", "numbers_reveals", "public_ids", "reveal_id",
           "revealed", "start_state", "state_to_builtins", "taken_to", "thaw", "top"]
