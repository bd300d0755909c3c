"""The state of a Legend of the Five Rings game, ``evolve`` (trusts its events, never re-runs a rule) and ``fold``.

Frozen msgspec Structs of tuples. Players are indexed in seating order (p1, p2); ``order`` is the turn order (R1).
A card instance names its card (``p1.hida-yakamo.2``, ``engine.l5r.catalog``). Where a card is:

- ``PlayerState.cards``: in play (personalities, holdings, rings; attachments with ``on`` naming their personality);
  a personality in an army is still here, and ``State.armies`` says where it fights;
- ``provinces`` (face down or up), ``hand``, the decks (``dynasty``/``fate``: the cards not yet drawn, in deck-list
  order; in sealed mode the seed orders the draws, ``top``; a position lists its decks top first), the discard
  piles.

``phase``: setup | start (a turn is about to begin) | action | attack | maneuvers | battle | dynasty | end | over.
``priority`` is the seat whose action a window awaits; ``passes`` counts passes in a row without an action between.
``pending`` are draws the table must enter (table mode; sealed mode draws at once).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, assert_never

import msgspec

from engine.l5r.catalog import card_of, instances
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
    GameEnded,
    GameStarted,
    GoldProduced,
    HonorChanged,
    L5REvent,
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
MAX_FOCUS = 4  # §5.2


class InPlay(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    bowed: bool = False
    dishonored: bool = False
    on: str | None = None  # an attachment's personality


class Province(msgspec.Struct, frozen=True, kw_only=True):
    number: int  # 1-4 as dealt
    card: str | None = None
    face_up: bool = False


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
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
    player: str
    dest: str  # hand | province
    province: int = 0


class Focus(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    source: str  # hand | deck
    card: str


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


class State(msgspec.Struct, frozen=True, kw_only=True):
    seq: int = 0
    phase: str = "setup"
    mode: str = "sealed"
    seats: tuple[SeatRecord, ...] = ()
    players: tuple[PlayerState, ...] = ()
    order: tuple[str, ...] = ()
    active: str = ""
    turn: int = 0
    priority: str | None = None
    passes: int = 0
    acted: bool = False
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
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)

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


# -- evolve ---------------------------------------------------------------------------------------------------


def _replace_player(state: State, seat: str, **changes: Any) -> State:
    return msgspec.structs.replace(state, players=tuple(
        msgspec.structs.replace(p, **changes) if p.id == seat else p for p in state.players))


def _update_card(player: PlayerState, instance: str, **changes: Any) -> PlayerState:
    return msgspec.structs.replace(player, cards=tuple(
        msgspec.structs.replace(c, **changes) if c.id == instance else c for c in player.cards))


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less ``item``. A copy of a game whose hidden cards were replaced (a view's test of what it may not
    see) may name a card that is not there: one card still leaves, so every count stays as recorded."""
    if item in items:
        i = items.index(item)
        return items[:i] + items[i + 1:]
    return items[1:]


_take_from_deck = _without


def _destroy(state: State, destroyed: Iterable[str]) -> State:
    """Destroyed cards go to their owner's discard piles (personalities and holdings: dynasty; attachments: fate);
    a destroyed personality's attachments go with it."""
    gone = set(destroyed)
    if not gone:
        return state
    players = []
    for p in state.players:
        attached = {c.id for c in p.cards if c.on in gone}
        lost = [c for c in p.cards if c.id in gone or c.id in attached]
        if not lost:
            players.append(p)
            continue
        dyn = tuple(c.id for c in lost if card_of(c.id).dynasty)
        fate = tuple(c.id for c in lost if card_of(c.id).fate)
        players.append(msgspec.structs.replace(
            p, cards=tuple(c for c in p.cards if c.id not in gone and c.id not in attached),
            dynasty_discard=p.dynasty_discard + dyn, fate_discard=p.fate_discard + fate))
    armies = tuple(msgspec.structs.replace(a, units=tuple(u for u in a.units if u not in gone)) for a in state.armies)
    modifiers = tuple(m for m in state.modifiers if m.target not in gone)
    return msgspec.structs.replace(state, players=tuple(players), armies=armies, modifiers=modifiers)


def _set_province(player: PlayerState, number: int, **changes: Any) -> PlayerState:
    return msgspec.structs.replace(player, provinces=tuple(
        msgspec.structs.replace(pr, **changes) if pr.number == number else pr for pr in player.provinces))


def _refill(state: State, seat: str, number: int) -> State:
    """A province emptied is refilled face down from the dynasty deck (§3.3), when the deck has a card."""
    p = state.player(seat)
    if not p.dynasty:
        return state
    return msgspec.structs.replace(state, pending=state.pending + (Pending(player=seat, dest="province",
                                                                          province=number),))


def _close_window(state: State) -> State:
    """Two passes in a row closed an action, engage or combat window."""
    if state.phase == "battle" and state.segment == "engage":
        return msgspec.structs.replace(state, segment="combat", priority=state.defender, passes=0, acted=False)
    if state.phase == "battle":
        return msgspec.structs.replace(state, segment="resolve", priority=None, passes=0, acted=False)
    return msgspec.structs.replace(state, closed=True, priority=None, passes=0, acted=False)


def _start_battles(state: State) -> State:
    return msgspec.structs.replace(state, phase="battle", battle=0, segment="engage", priority=state.defender,
                                   passes=0, acted=False, closed=False)


def _expire(state: State, until: str) -> State:
    return msgspec.structs.replace(state, modifiers=tuple(m for m in state.modifiers if m.until != until))


def start_state(event: GameStarted) -> State:
    """The state ``game_started`` makes (whatever came before it)."""
    players = []
    pending: list[Pending] = []
    for deck in event.decks:
        players.append(_player_of(deck, event.seed is not None))
    shuffled = event.seed is not None and event.position is None
    state = State(phase="start", mode=event.variant.mode, seats=event.seats, players=tuple(players),
                  order=event.order, active=event.order[0], seed=event.seed, decks=event.decks if shuffled else ())
    if event.position is not None:
        return _from_position(state, event.position)
    for deck in event.decks:
        pending += [Pending(player=deck.player, dest="province", province=n) for n in range(1, 5)]
    for deck in event.decks:
        pending += [Pending(player=deck.player, dest="hand")] * 5
    return msgspec.structs.replace(state, pending=tuple(pending))


def _player_of(deck: DeckRecord, sealed_seed: bool) -> PlayerState:
    return PlayerState(
        id=deck.player, deck=deck.name, clan=deck.clan, stronghold=f"{deck.player}.{deck.stronghold}.1",
        sensei=f"{deck.player}.{deck.sensei}.1" if deck.sensei else None, honor=deck.honor,
        strength=deck.province_strength, production=deck.gold,
        provinces=tuple(Province(number=n) for n in range(1, 5)),
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


def _from_position(state: State, position: PositionRecord) -> State:
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
        provinces = []
        for n, spec_pr in enumerate(spec.provinces, start=1):
            if spec_pr is None:
                continue
            inst = _instance(p.id, spec_pr.card, used) if spec_pr.card else None
            if inst:
                used.append(inst)
            provinces.append(Province(number=n, card=inst, face_up=spec_pr.face_up))
        hand = []
        for card in spec.hand:
            hand.append(_instance(p.id, card, used))
            used.append(hand[-1])
        dynasty = []
        for card in spec.dynasty:
            dynasty.append(_instance(p.id, card, used))
            used.append(dynasty[-1])
        fate = []
        for card in spec.fate:
            fate.append(_instance(p.id, card, used))
            used.append(fate[-1])
        players.append(msgspec.structs.replace(
            p, honor=spec.honor, cards=tuple(cards), provinces=tuple(provinces), hand=tuple(hand),
            dynasty=tuple(dynasty), fate=tuple(fate), stronghold_bowed=spec.stronghold_bowed))
    state = msgspec.structs.replace(state, players=tuple(players), phase="action", active=position.active,
                                    turn=position.turn, priority=position.active)
    if position.duel is not None:
        d = position.duel
        challenger = _named(state, d.challenger)
        challenged = _named(state, d.challenged)
        focuses: list[Focus] = []
        for f in d.focuses:
            owner = state.player(f.player)
            taken = {x.card for x in focuses}
            inst = next(i for i in (owner.hand if f.source == "hand" else owner.fate)
                        if card_of(i).id == f.card and i not in taken)
            focuses.append(Focus(player=f.player, source=f.source, card=inst))
            if f.source == "hand":
                state = _replace_player(state, f.player, hand=_without(owner.hand, inst))
            else:
                state = _replace_player(state, f.player, fate=_without(owner.fate, inst))
        duel = Duel(seat=challenger.split(".", 1)[0], challenger=challenger, challenged=challenged, stat=d.stat,
                    card=None, destroy_loser=True, focuses=tuple(focuses), resume=position.active)
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
    return next(c.id for c in state.player(seat).cards if card_of(c.id).id == card and c.on is None)


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


def evolve(state: State, event: L5REvent) -> State:  # noqa: C901 - one case per event
    state = msgspec.structs.replace(state, seq=state.seq + 1)
    match event:
        case GameStarted():
            return msgspec.structs.replace(start_state(event), seq=state.seq)
        case CardDrawn(player=seat, card=card):
            p = state.player(seat)
            inst = card if card is not None else p.fate[0]
            state = _replace_player(state, seat, hand=p.hand + (inst,), fate=_take_from_deck(p.fate, inst))
            return _pop_pending(state)
        case ProvinceFilled(player=seat, province=number, card=card):
            p = state.player(seat)
            inst = card if card is not None else p.dynasty[0]
            p = msgspec.structs.replace(_set_province(p, number, card=inst, face_up=False),
                                        dynasty=_take_from_deck(p.dynasty, inst))
            state = _replace_player(state, seat, **{f: getattr(p, f) for f in ("provinces", "dynasty")})
            return _pop_pending(state)
        case TurnStarted(player=seat, turn=turn, straightened=_):
            p = state.player(seat)
            p = msgspec.structs.replace(
                p, stronghold_bowed=False, cards=tuple(msgspec.structs.replace(c, bowed=False) if c.bowed else c
                                                       for c in p.cards),
                gold=0, proclaimed=False, dynasty_discarded=False, played=())
            state = msgspec.structs.replace(state, players=tuple(
                p if q.id == seat else msgspec.structs.replace(q, gold=0) for q in state.players))
            return msgspec.structs.replace(state, phase="action", active=seat, turn=turn, priority=seat, passes=0,
                                           acted=False, closed=False)
        case CardsRevealed(player=seat, cards=cards, discarded=discarded):
            p = state.player(seat)
            for r in cards:
                p = _set_province(p, r.province, card=r.card, face_up=True)
            for inst in discarded:
                number = next(pr.number for pr in p.provinces if pr.card == inst)
                p = msgspec.structs.replace(_set_province(p, number, card=None, face_up=False),
                                            dynasty_discard=p.dynasty_discard + (inst,))
            state = _replace_player(state, seat, provinces=p.provinces, dynasty_discard=p.dynasty_discard)
            for inst in discarded:
                number = next(r.province for r in cards if r.card == inst)
                state = _refill(state, seat, number)
            return state
        case PhaseStarted(player=seat, phase=phase):
            # unused gold is lost at the end of the phase (§3.3)
            state = msgspec.structs.replace(state, players=tuple(
                msgspec.structs.replace(p, gold=0) if p.gold else p for p in state.players))
            if phase == "attack":
                return msgspec.structs.replace(state, phase="attack", closed=False, priority=None)
            if phase == "dynasty":
                state = _expire(state, "battle")
                return msgspec.structs.replace(state, phase="dynasty", closed=False, priority=None, armies=(),
                                               battlefields=(), defender=None, segment="")
            p = state.player(seat)
            state = msgspec.structs.replace(state, phase="end", closed=False, priority=None)
            if p.fate:
                state = msgspec.structs.replace(state, pending=state.pending + (Pending(player=seat, dest="hand"),))
            return state
        case Passed(player=seat, window=window):
            return _passed(state, seat, window)
        case GoldProduced(player=seat, card=card, gold=gold):
            p = state.player(seat)
            if card == p.stronghold:
                p = msgspec.structs.replace(p, stronghold_bowed=True)
            else:
                p = _update_card(p, card, bowed=True)
            state = _replace_player(state, seat, stronghold_bowed=p.stronghold_bowed, cards=p.cards,
                                    gold=p.gold + gold)
            return _acted(state)
        case CardRecruited(player=seat, province=number, card=card, gold=gold, proclaimed=proclaimed):
            p = state.player(seat)
            holding = card_of(card).kind == "holding"
            p = _set_province(p, number, card=None, face_up=False)
            p = msgspec.structs.replace(p, gold=p.gold - gold, cards=p.cards + (InPlay(id=card, bowed=holding),),
                                        proclaimed=p.proclaimed or proclaimed)
            state = msgspec.structs.replace(state, players=tuple(p if q.id == seat else q for q in state.players))
            return _refill(_acted(state), seat, number)
        case CardAttached(player=seat, card=card, to=to, gold=gold):
            p = state.player(seat)
            p = msgspec.structs.replace(p, hand=_without(p.hand, card), gold=p.gold - gold,
                                        cards=p.cards + (InPlay(id=card, on=to),))
            state = msgspec.structs.replace(state, players=tuple(p if q.id == seat else q for q in state.players))
            return _acted(state)
        case RingPlayed(player=seat, card=card):
            p = state.player(seat)
            state = _replace_player(state, seat, hand=_without(p.hand, card), cards=p.cards + (InPlay(id=card),))
            return _acted(state)
        case StrategyPlayed(player=seat, card=card, gold=gold):
            p = state.player(seat)
            state = _replace_player(state, seat, hand=_without(p.hand, card), gold=p.gold - gold,
                                    fate_discard=p.fate_discard + (card,), played=p.played + (card,))
            return _acted(state)
        case EffectApplied():
            return _acted(_effect(state, event))
        case HonorChanged(player=seat, total=total):
            return _replace_player(state, seat, honor=total)
        case AttackDeclared(player=seat, defender=defender, battlefields=fields):
            return msgspec.structs.replace(state, phase="maneuvers", defender=defender, battlefields=fields,
                                           priority=seat, passes=0, armies=(), closed=False)
        case ArmyAssigned(player=seat, side=side, battlefield=field, units=units):
            army = Army(player=seat, side=side, battlefield=field, units=units)
            return msgspec.structs.replace(state, armies=state.armies + (army,))
        case BattleResolved():
            return _battle_resolved(state, event)
        case AttackEnded():
            return msgspec.structs.replace(state, armies=(), closed=True, segment="", priority=None)
        case DuelChallenged(player=seat, challenger=challenger, challenged=challenged, stat=stat, card=card,
                            destroy_loser=destroy):
            duel = Duel(seat=seat, challenger=challenger, challenged=challenged, stat=stat, card=card,
                        destroy_loser=destroy, resume=state.priority)
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(duel, next=next_focus(duel)))
        case DuelFocused(player=seat, source=source, card=card):
            under_way = state.duel
            assert under_way is not None
            p = state.player(seat)
            if source == "hand":
                assert card is not None
                state = _replace_player(state, seat, hand=_without(p.hand, card))
            else:
                card = card if card is not None else p.fate[0]
                state = _replace_player(state, seat, fate=_take_from_deck(p.fate, card))
            duel = msgspec.structs.replace(under_way, focuses=under_way.focuses + (
                Focus(player=seat, source=source, card=card),))
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(duel, next=next_focus(duel, seat)))
        case DuelStruck():
            assert state.duel is not None
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(state.duel, next=None))
        case DuelResolved(destroyed=destroyed, revealed=revealed):
            assert state.duel is not None
            duel = state.duel
            for shown in revealed:  # the focus cards as revealed (§5.3), discarded
                p = state.player(shown.player)
                state = _replace_player(state, shown.player, fate_discard=p.fate_discard + (shown.card,))
            state = _destroy(state, destroyed)
            state = msgspec.structs.replace(state, modifiers=tuple(m for m in state.modifiers if m.stat != "duel"))
            return msgspec.structs.replace(state, duel=None, priority=duel.resume, passes=0, acted=True)
        case DynastyDiscarded(player=seat, province=number, card=card):
            p = state.player(seat)
            p = _set_province(p, number, card=None, face_up=False)
            state = _replace_player(state, seat, provinces=p.provinces, dynasty_discard=p.dynasty_discard + (card,),
                                    dynasty_discarded=True)
            return _refill(state, seat, number)
        case CardDiscarded(player=seat, card=card):
            p = state.player(seat)
            return _replace_player(state, seat, hand=_without(p.hand, card), fate_discard=p.fate_discard + (card,))
        case TurnEnded(player=seat, next=nxt):
            state = _expire(state, "turn")
            state = _replace_player(state, seat, gold=0)
            return msgspec.structs.replace(state, phase="start", active=nxt, priority=None)
        case PlayerEliminated(player=seat):
            return _replace_player(state, seat, eliminated=True)
        case Conceded():
            return state
        case GameEnded(winner=winner, reason=reason):
            return msgspec.structs.replace(state, phase="over", winner=winner, end_reason=reason, priority=None,
                                           pending=(), duel=None, adjudication=event.adjudication)
        case _:
            assert_never(event)


def _pop_pending(state: State) -> State:
    return msgspec.structs.replace(state, pending=state.pending[1:]) if state.pending else state


def _acted(state: State) -> State:
    return msgspec.structs.replace(state, acted=True) if state.priority is not None else state


def _passed(state: State, seat: str, window: str) -> State:
    if window in WINDOWS_OF_TWO:
        passes = 0 if state.acted else state.passes + 1
        if passes >= 2:
            return _close_window(state)
        return msgspec.structs.replace(state, priority=state.other(seat), passes=passes, acted=False)
    if window == "maneuvers":
        if state.defender is not None and seat != state.defender:
            return msgspec.structs.replace(state, priority=state.defender)
        return _start_battles(state)
    if window in ("attack", "dynasty"):
        return msgspec.structs.replace(state, closed=True)
    raise ValueError(f"no window {window!r}")


def _effect(state: State, event: EffectApplied) -> State:
    kind, target, amount = event.kind, event.target, event.amount
    if kind in ("force", "chi", "honor", "duel"):
        state = msgspec.structs.replace(state, modifiers=state.modifiers + (
            Modifier(target=target, stat=kind, amount=amount, until=event.until),))
    elif kind == "province":
        state = msgspec.structs.replace(state, modifiers=state.modifiers + (
            Modifier(target=target, stat="province", amount=amount, until=event.until),))
    elif kind == "family_honor":
        pass  # honor_changed follows
    elif kind == "gold":
        p = state.player(event.player)
        state = _replace_player(state, event.player, gold=p.gold + amount)
    elif kind in ("bow", "straighten", "dishonor", "restore"):
        owner = target.split(".", 1)[0]
        p = state.player(owner)
        if target == p.stronghold:
            state = _replace_player(state, owner, stronghold_bowed=kind == "bow")
        else:
            change = {"bow": {"bowed": True}, "straighten": {"bowed": False}, "dishonor": {"dishonored": True},
                      "restore": {"dishonored": False}}[kind]
            state = _replace_player(state, owner, cards=_update_card(p, target, **change).cards)
    elif kind == "send_home":
        state = msgspec.structs.replace(state, armies=tuple(
            msgspec.structs.replace(a, units=tuple(u for u in a.units if u != target)) for a in state.armies))
    elif kind == "draw":
        drawn = min(amount, len(state.player(target).fate))
        state = msgspec.structs.replace(state, pending=state.pending + (Pending(player=target, dest="hand"),) * drawn)
    elif kind == "discard":
        owner = target.split(".", 1)[0]
        p = state.player(owner)
        state = _replace_player(state, owner, hand=_without(p.hand, target), fate_discard=p.fate_discard + (target,))
    return _destroy(state, event.destroyed)


def _battle_resolved(state: State, event: BattleResolved) -> State:
    for seat in (event.attacker, event.defender):
        p = state.player(seat)
        cards = tuple(msgspec.structs.replace(c, dishonored=False) if c.id in event.restored else c for c in p.cards)
        state = _replace_player(state, seat, cards=cards)
    state = _destroy(state, event.destroyed)
    if event.province_destroyed:
        d = state.player(event.defender)
        state = _replace_player(state, event.defender,
                                provinces=tuple(pr for pr in d.provinces if pr.number != event.battlefield),
                                dynasty_discard=d.dynasty_discard + event.discarded)
    a = state.player(event.attacker)
    state = _replace_player(state, event.attacker, cards=tuple(
        msgspec.structs.replace(c, bowed=True) if c.id in event.returned_bowed else c for c in a.cards))
    armies = tuple(x for x in state.armies if not (x.side == "attacker" and x.battlefield == event.battlefield))
    state = _expire(msgspec.structs.replace(state, armies=armies), "battle")
    if state.battle + 1 < len(state.battlefields):
        return msgspec.structs.replace(state, battle=state.battle + 1, segment="engage", priority=state.defender,
                                       passes=0, acted=False)
    return msgspec.structs.replace(state, segment="over", priority=None)


def fold(events: Iterable[L5REvent], state: State | None = None) -> State:
    """``evolve`` over ``events`` from ``state``, at speed: one mutable working copy (``engine.l5r.folding``)."""
    from engine.l5r.folding import fold as fold_in_place

    return fold_in_place(events, state)


def state_to_builtins(state: State) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["to_act"] = list(awaited(state))
    if state.phase == "over":
        data["winner"] = state.winner or "draw"  # the contract's winner: a draw reads "draw"
    return data


__all__ = ["MAX_FOCUS", "Army", "Duel", "Focus", "InPlay", "Modifier", "Pending", "PlayerState", "Province", "State",
           "awaited", "deck_ranks", "evolve", "focus_count", "fold", "initial_state", "next_focus", "start_state",
           "state_to_builtins", "top"]
