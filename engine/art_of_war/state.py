"""The state of an Art of War game, ``evolve`` (trusts its events) and ``fold``.

Frozen msgspec Structs of tuples. Per player: hand, deck (the cards left, in deck-list order; in a sealed game the
seed orders the draws, ``top``), the standby queue (first = oldest), kingdom, graveyard and the battlefield
(``field``: occupied squares only, in square order). ``chain`` holds an attack or support and the answers to it
(R3) until it resolves; ``pending`` the draws a table must enter; ``conscript`` a player deploying after its
battlefield emptied (§6).

``phase``: setup | redraw | deploy | turn | over.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, assert_never

import msgspec

from engine.art_of_war.catalogue import SQUARES, instances, kind_of
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


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    square: str
    unit: Unit


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
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


class State(msgspec.Struct, frozen=True, kw_only=True):
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
    return State()


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


# -- evolve ---------------------------------------------------------------------------------------------------------


def _with(state: State, seat: str, **changes: Any) -> State:
    return replace(state, players=tuple(replace(p, **changes) if p.id == seat else p for p in state.players))


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less ``item`` (a copy whose hidden cards were varied may name another: the first leaves)."""
    if item in items:
        i = items.index(item)
        return items[:i] + items[i + 1:]
    return items[1:]


def revealed(source: list[str], hidden: list[str], card: str) -> None:
    """A card leaves the hidden zone ``source`` (a hand, a deck) face up as ``card``, in place. R7: a card revealed
    from a deck without a seeded order gets the lowest id of its type that no public zone holds (``reveal_id``),
    which the card leaving need not carry: then the first card of its type in ``source`` leaves, and the hidden card
    that carried ``card`` (in ``hidden``, the player's other hidden zone) takes over that card's id. Cards of a
    type are alike, so nothing but their names changes. (A copy of a game whose hidden cards were varied may name
    a type ``source`` lacks: its first card leaves.)"""
    if card in source:
        source.remove(card)
        return
    kind = kind_of(card)
    same = next((c for c in source if kind_of(c) == kind), None)
    if same is None:
        del source[:1]
        return
    source.remove(same)
    if card in hidden:
        hidden[hidden.index(card)] = same


def _revealed(p: PlayerState, card: str, source: str) -> PlayerState:
    """``p`` after ``card`` left its ``source`` (``hand`` or ``deck``) face up (``revealed``)."""
    hand, deck = list(p.hand), list(p.deck)
    if source == "hand":
        revealed(hand, deck, card)
    else:
        revealed(deck, hand, card)
    return replace(p, hand=tuple(hand), deck=tuple(deck))


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


def _set_unit(p: PlayerState, square: str, unit: Unit | None) -> tuple[Slot, ...]:
    slots = {s.square: s.unit for s in p.field}
    if unit is None:
        slots.pop(square, None)
    else:
        slots[square] = unit
    return tuple(Slot(square=sq, unit=slots[sq]) for sq in SQUARES if sq in slots)


def start_state(event: GameStarted) -> State:
    if event.position is not None:
        return _from_position(event)
    players = tuple(PlayerState(id=d.player, deck_name=d.name, king=f"{d.player}.{d.king}.1",
                                deck=instances(d.player, d.cards)) for d in event.decks)
    state = State(phase="redraw", mode=event.variant.mode, seats=event.seats, players=players, first=event.first,
                  active=event.first, seed=event.seed, decks=event.decks)
    order = [event.first, next(d.player for d in event.decks if d.player != event.first)]
    return replace(state, pending=tuple(seat for seat in order for _ in range(3)))


def _numbering(seat: str) -> Any:
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
                 first=event.first, active=position.active, turn=position.turn, started=True, decks=event.decks)


def _moved(p: PlayerState, moves: Iterable[tuple[str, str]]) -> tuple[Slot, ...]:
    """Units moved at once (a swap is two moves)."""
    units = {s.square: s.unit for s in p.field}
    moved = {a: units[a] for a, _ in moves if a in units}
    for a, _ in moves:
        units.pop(a, None)
    for a, b in moves:
        if a in moved:
            units[b] = moved[a]
    return tuple(Slot(square=sq, unit=units[sq]) for sq in SQUARES if sq in units)


def evolve(state: State, event: ArtOfWarEvent) -> State:  # noqa: C901 - one case per event
    state = replace(state, seq=state.seq + 1)
    match event:
        case GameStarted():
            return replace(start_state(event), seq=state.seq)
        case CardDrawn(player=seat, card=card):
            p = state.player(seat)
            inst = card if card is not None else (p.deck[0] if p.deck else "")
            state = _with(state, seat, hand=p.hand + (inst,), deck=_without(p.deck, inst))
            return replace(state, pending=state.pending[1:])
        case RedrawDecided(player=seat, again=again, hand=hand):
            p = state.player(seat)
            if again and hand is not None:
                deck = p.deck + p.hand
                for inst in hand:
                    deck = _without(deck, inst)
                state = _with(state, seat, hand=hand, deck=tuple(sorted(deck, key=_deck_order(p, state))),
                              redraw="redrawn")
                return replace(state, reshuffled=state.reshuffled + (seat,))
            return _with(state, seat, redraw="kept")
        case KingsTaken():
            state = replace(state, players=tuple(replace(p, hand=p.hand + (p.king,)) for p in state.players))
            return replace(state, phase="deploy")
        case Deployed(player=seat, card=card, square=square, standby=standby, kingdom=kingdom):
            p = _revealed(_revealed(_revealed(state.player(seat), card, "hand"), standby, "hand"), kingdom, "deck")
            p = replace(p, standby=p.standby + (standby,), kingdom=p.kingdom + (kingdom,), deployed=True)
            p = replace(p, field=_set_unit(p, square, Unit(card=card)))
            return replace(state, players=tuple(p if q.id == seat else q for q in state.players))
        case TurnStarted(player=seat, turn=turn):
            p = state.player(seat)
            field = tuple(Slot(square=s.square, unit=replace(s.unit, upright=True, attacked=False)) for s in p.field)
            state = _with(state, seat, field=field, entered=False)
            pending = (seat,) if p.deck else ()
            return replace(state, phase="turn", active=seat, turn=turn, action=None, supports=0, pending=pending,
                           started=True)
        case Arranged(player=seat, how=how, square=square, to=to, card=card):
            return replace(_arranged(state, seat, how, square, to, card), action="arranged")
        case BattleDeclared():
            return replace(state, action="battle")
        case AttackDeclared(player=seat, square=square, unit=unit, target=target, value=value):
            p = state.player(seat)
            u = p.unit_at(square)
            if u is not None:
                state = _with(state, seat, field=_set_unit(p, square, replace(u, upright=False, attacked=True)))
            return replace(state, chain=state.chain + (Link(kind="attack", player=seat, card=unit, target=target,
                                                            square=square, value=value),))
        case SupportDeclared(player=seat, card=card, effect=effect, target=target, square=square, to=to):
            p = _revealed(state.player(seat), card, "hand")
            state = _with(state, seat, hand=p.hand, deck=p.deck, standby=p.standby + (card,))
            return replace(state, chain=state.chain + (Link(kind="support", player=seat, card=card, effect=effect,
                                                            target=target, square=square, to=to),))
        case Passed():
            return state
        case ChainResolved(effective=effective):
            base = state.chain[0] if state.chain else None
            state = replace(state, chain=())
            if base is not None and effective and effective[0] and base.kind == "support" and base.effect == "soldier":
                state = replace(state, supports=state.supports + 1)
            return state
        case Damaged(owner=owner, square=square, total=total, result=result, by=by, to=to):
            p = state.player(owner)
            u = p.unit_at(square)
            if u is None:
                return state
            if result == "damaged":
                return _with(state, owner, field=_set_unit(p, square, replace(u, damage=total, hits=u.hits + 1)))
            p = replace(p, field=_set_unit(p, square, None))
            if taken_to(result, to) == "graveyard":
                return _with(state, owner, field=p.field, graveyard=p.graveyard + (u.card,))
            state = _with(state, owner, field=p.field)
            taker = state.player(by)
            return _with(state, by, kingdom=taker.kingdom + (u.card,))
        case Moved(player=seat, moves=moves):
            p = state.player(seat)
            return _with(state, seat, field=_moved(p, moves))
        case Entered(player=seat, card=card):
            p = _revealed(state.player(seat), card, "hand")
            return _with(state, seat, hand=p.hand, deck=p.deck, kingdom=p.kingdom + (card,), entered=True)
        case ConscriptionStarted(player=seat):
            return replace(state, conscript=seat)
        case Conscripted(player=seat, card=card, square=square, source=source):
            p = state.player(seat)
            if source == "standby":
                p = replace(p, standby=_without(p.standby, card))
            else:
                p = replace(p, kingdom=_without(p.kingdom, card))
            p = replace(p, field=_set_unit(p, square, Unit(card=card)))
            state = replace(state, players=tuple(p if q.id == seat else q for q in state.players))
            return replace(state, conscript=None) if len(p.field) >= 2 else state
        case TurnEnded(next=nxt):
            players = tuple(replace(p, field=tuple(Slot(square=s.square, unit=replace(s.unit, damage=0, hits=0))
                                                   for s in p.field)) for p in state.players)
            return replace(state, players=players, active=nxt, supports=0, action=None, started=False)
        case Conceded():
            return state
        case GameEnded(winner=winner, reason=reason):
            return replace(state, phase="over", winner=winner, end_reason=reason, chain=(), pending=(),
                           conscript=None, adjudication=event.adjudication)
        case _:
            assert_never(event)


def _deck_order(p: PlayerState, state: State) -> Any:
    """Sort key: a card's place in its deck list (the state keeps a deck in list order; the seed orders draws)."""
    cards = next((d.cards for d in state.decks if d.player == p.id), ())
    order = {inst: i for i, inst in enumerate(instances(p.id, cards))}
    return lambda inst: order.get(inst, len(order))


def _arranged(state: State, seat: str, how: str, square: str, to: str | None, card: str | None) -> State:
    p = state.player(seat)
    if how == "place":  # the standby head onto an empty square
        head = p.standby[0]
        p = replace(p, standby=p.standby[1:], field=_set_unit(p, square, Unit(card=head)))
    elif how == "rotate":  # the unit to the back of the queue, the head into its square
        u = p.unit_at(square)
        head = p.standby[0]
        assert u is not None
        p = replace(p, standby=p.standby[1:] + (u.card,), field=_set_unit(p, square, Unit(card=head)))
    elif how == "shift":
        assert to is not None
        moves = [(square, to)] + ([(to, square)] if p.unit_at(to) is not None else [])
        p = replace(p, field=_moved(p, moves))
    else:  # play: a hand card onto the square, the unit there (if any) back to hand
        assert card is not None
        u = p.unit_at(square)
        p = _revealed(p, card, "hand")
        p = replace(p, hand=p.hand + ((u.card,) if u is not None else ()), field=_set_unit(p, square, Unit(card=card)))
    return replace(state, players=tuple(p if q.id == seat else q for q in state.players))


def taken_to(result: str, to: str | None) -> str:
    """Where a unit taken off the battlefield went: ``to`` (every ``damaged`` event since v2 says), else by its
    result."""
    return to or ("kingdom" if result == "captured" else "graveyard")


def fold(events: Iterable[ArtOfWarEvent], state: State | None = None) -> State:
    """``evolve`` over ``events`` from ``state``, at speed: one mutable working copy (``engine.art_of_war.folding``)."""
    from engine.art_of_war.folding import fold as fold_in_place

    return fold_in_place(events, state)


def state_to_builtins(state: State) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["to_act"] = list(awaited(state))
    if state.phase == "over":
        data["winner"] = state.winner or "draw"  # the contract's winner: a draw reads "draw"
    return data


__all__ = ["Link", "PlayerState", "Slot", "State", "Unit", "awaited", "deck_ranks", "evolve", "fold",
           "initial_state", "numbers_reveals", "public_ids", "reveal_id", "revealed", "start_state",
           "state_to_builtins", "taken_to", "top"]
