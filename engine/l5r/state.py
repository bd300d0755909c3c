"""The state of a Legend of the Five Rings game, ``evolve`` (trusts its events, never re-runs a rule) and ``fold``.

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
from collections.abc import Iterable
from typing import Any, assert_never

import msgspec

from engine.l5r.catalogue import card_of, instances
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


class State(msgspec.Struct, frozen=True, kw_only=True):
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


def copy_number(instance: str) -> int:
    return int(instance.rsplit(".", 1)[1])


def unseen_of(pool: Iterable[str], card_id: str) -> str | None:
    """Table mode: the instance a card entered as seen takes from the cards not yet seen (``pool``): its lowest copy
    left, so that which copy it is never depends on where the unseen cards lie."""
    return min((i for i in pool if i.split(".")[1] == card_id), key=copy_number, default=None)


def dynasty_left(state: State, seat: str) -> int:
    """The cards left in ``seat``'s dynasty deck: its unseen pool (``dynasty``) less the unseen cards lying face down
    in its provinces or waiting to be entered as discarded (table mode)."""
    p = state.player(seat)
    laid = sum(1 for pr in p.provinces if pr.unseen) + sum(1 for x in state.pending
                                                            if x.player == seat and x.dest == "discard")
    return len(p.dynasty) - laid


def fate_left(state: State, seat: str) -> int:
    """The cards left in ``seat``'s fate deck: its unseen pool (``fate``) less its focus cards laid unseen."""
    laid = sum(1 for f in state.duel.focuses if f.player == seat and f.card is None) if state.duel else 0
    return len(state.player(seat).fate) - laid


def _destroy(state: State, destroyed: Iterable[str], removed: Iterable[str] = ()) -> State:
    """Cards leave play: destroyed ones go to their owner's discard piles (personalities and holdings: dynasty;
    attachments: fate), a dishonoured one lying dishonoured there (§4); ``removed`` ones to the removed-from-game area
    (R9). A personality's attachments leave play with it, to the discard pile."""
    out = set(removed)
    gone = set(destroyed) | out
    if not gone:
        return state
    players = []
    for p in state.players:
        attached = {c.id for c in p.cards if c.on in gone}
        lost = [c for c in p.cards if c.id in gone or c.id in attached]
        if not lost:
            players.append(p)
            continue
        discarded = [c for c in lost if c.id not in out]
        dyn = tuple(c.id for c in discarded if card_of(c.id).dynasty)
        fate = tuple(c.id for c in discarded if card_of(c.id).fate)
        shamed = tuple(c.id for c in discarded if c.dishonored)
        players.append(msgspec.structs.replace(
            p, cards=tuple(c for c in p.cards if c.id not in gone and c.id not in attached),
            dynasty_discard=p.dynasty_discard + dyn, fate_discard=p.fate_discard + fate,
            discard_dishonored=p.discard_dishonored + shamed,
            removed=p.removed + tuple(c.id for c in lost if c.id in out)))
    armies = tuple(msgspec.structs.replace(a, units=tuple(u for u in a.units if u not in gone)) for a in state.armies)
    modifiers = tuple(m for m in state.modifiers if m.target not in gone)
    return msgspec.structs.replace(state, players=tuple(players), armies=armies, modifiers=modifiers)


def _sent_home(state: State, personalities: Iterable[str]) -> State:
    """Personalities taken out of their armies, home as they are (an effect's ``send_home``; a duel's survivor, R7)."""
    gone = set(personalities)
    if not gone:
        return state
    return msgspec.structs.replace(state, armies=tuple(
        msgspec.structs.replace(a, units=tuple(u for u in a.units if u not in gone)) for a in state.armies))


def _set_province(player: PlayerState, number: int, **changes: Any) -> PlayerState:
    return msgspec.structs.replace(player, provinces=tuple(
        msgspec.structs.replace(pr, **changes) if pr.number == number else pr for pr in player.provinces))


def _refill(state: State, seat: str, number: int) -> State:
    """A province emptied is refilled face down from the dynasty deck (§3.3), when the deck has a card left for it
    (refills already awaited count: R9, an empty deck draws nothing)."""
    awaited_fills = sum(1 for x in state.pending if x.player == seat and x.dest == "province")
    if dynasty_left(state, seat) <= awaited_fills:
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
                  order=event.order, active=event.order[0], seed=event.seed, decks=event.decks if shuffled else (),
                  one_action_at_a_time=event.rules_version != OLD_RULES)
    if event.position is not None:
        return _from_position(state, event.position, old_rules=event.rules_version == OLD_RULES)
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
                        if card_of(i).id == f.card and i not in taken)
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


# R9: "no event but passes and empty draws": passes, empty draws and the steps every turn takes by itself whatever
# the players do (a turn's start and end, its phases). Any other event is something happening: a card drawn or
# played, gold produced, an attack declared, an honour change...
QUIET_EVENTS = (Passed, NothingDrawn, PhaseStarted, TurnStarted, TurnEnded)


def is_quiet(event: L5REvent) -> bool:
    """R9: whether ``event`` is one of those that leave a round quiet (``State.quiet_since``, ``rules.is_stalled``)."""
    return isinstance(event, QUIET_EVENTS)


def evolve(state: State, event: L5REvent) -> State:
    after = _apply(state, event)
    if not is_quiet(event) and not isinstance(event, GameStarted) and after.quiet_since != after.turn:
        after = msgspec.structs.replace(after, quiet_since=after.turn)
    return after


def _apply(state: State, event: L5REvent) -> State:  # noqa: C901 - one case per event
    state = msgspec.structs.replace(state, seq=state.seq + 1)
    match event:
        case GameStarted():
            return msgspec.structs.replace(start_state(event), seq=state.seq)
        case CardDrawn(player=seat, card=card):
            p = state.player(seat)
            inst = card if card is not None else p.fate[0]
            state = _replace_player(state, seat, hand=p.hand + (inst,), fate=_take_from_deck(p.fate, inst))
            return _pop_pending(state)
        case ProvinceFilled(player=seat, province=number, source="unseen"):
            p = _set_province(state.player(seat), number, card=None, face_up=False, unseen=True)
            return _pop_pending(_replace_player(state, seat, provinces=p.provinces))
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
            # table mode: each unseen face-down card is entered as it turns face up
            reveals = tuple(Pending(player=seat, dest="reveal", province=pr.number)
                            for pr in p.provinces if pr.unseen)
            return msgspec.structs.replace(state, phase="action", active=seat, turn=turn, priority=seat, passes=0,
                                           acted=False, closed=False, pending=state.pending + reveals)
        case CardsRevealed(player=seat, cards=cards, discarded=discarded, table=table):
            p = state.player(seat)
            for r in cards:
                if table:  # an unseen card entered: it leaves the unseen pool
                    p = msgspec.structs.replace(p, dynasty=_take_from_deck(p.dynasty, r.card))
                p = _set_province(p, r.province, card=r.card, face_up=True, unseen=False)
            emptied = []
            for inst in discarded:  # events (D2); a destroyed province's card (table)
                holding = next((pr.number for pr in p.provinces if pr.card == inst), None)
                if holding is not None:
                    p = _set_province(p, holding, card=None, face_up=False)
                    emptied.append(holding)
                p = msgspec.structs.replace(p, dynasty_discard=p.dynasty_discard + (inst,))
            state = _replace_player(state, seat, provinces=p.provinces, dynasty_discard=p.dynasty_discard,
                                    dynasty=p.dynasty)
            if table:
                state = _pop_pending(state)
            for holding in emptied:
                state = _refill(state, seat, holding)
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
            return _took_action(state, seat, card)
        case RingPlayed(player=seat, card=card):
            p = state.player(seat)
            state = _replace_player(state, seat, hand=_without(p.hand, card), cards=p.cards + (InPlay(id=card),))
            return _took_action(state, seat, card)
        case StrategyPlayed(player=seat, card=card, gold=gold):
            p = state.player(seat)
            state = _replace_player(state, seat, hand=_without(p.hand, card), gold=p.gold - gold,
                                    fate_discard=p.fate_discard + (card,), played=p.played + (card,))
            return _took_action(state, seat, card)
        case EffectApplied():
            return _took_action(_effect(state, event), event.player, event.card)
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
            resume = state.other(seat) if state.one_action_at_a_time else state.priority  # R6: seat's action
            duel = Duel(seat=seat, challenger=challenger, challenged=challenged, stat=stat, card=card,
                        destroy_loser=destroy, resume=resume)
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(duel, next=next_focus(duel)))
        case DuelFocused(player=seat, source=source, card=card, unseen=unseen):
            under_way = state.duel
            assert under_way is not None
            p = state.player(seat)
            if source == "hand":
                assert card is not None
                state = _replace_player(state, seat, hand=_without(p.hand, card))
            elif unseen:  # table mode: laid unseen, among the unseen fate cards until the reveal
                card = None
            else:
                card = card if card is not None else p.fate[0]
                state = _replace_player(state, seat, fate=_take_from_deck(p.fate, card))
            duel = msgspec.structs.replace(under_way, focuses=under_way.focuses + (
                Focus(player=seat, source=source, card=card),))
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(duel, next=next_focus(duel, seat)))
        case DuelStruck():
            assert state.duel is not None
            entries = tuple(Pending(player=f.player, dest="focus") for f in state.duel.focuses if f.card is None)
            return msgspec.structs.replace(state, duel=msgspec.structs.replace(state.duel, next=None),
                                           pending=state.pending + entries)
        case FocusRevealed(player=seat, card=card):
            laid = state.duel
            assert laid is not None
            focuses = list(laid.focuses)
            i = next(i for i, f in enumerate(focuses) if f.player == seat and f.card is None)
            focuses[i] = msgspec.structs.replace(focuses[i], card=card)
            p = state.player(seat)
            state = _replace_player(state, seat, fate=_take_from_deck(p.fate, card))
            return _pop_pending(msgspec.structs.replace(state, duel=msgspec.structs.replace(
                laid, focuses=tuple(focuses))))
        case DuelResolved(destroyed=destroyed, revealed=revealed):
            assert state.duel is not None
            duel = state.duel
            for shown in revealed:  # the focus cards as revealed (§5.3), discarded
                p = state.player(shown.player)
                state = _replace_player(state, shown.player, fate_discard=p.fate_discard + (shown.card,))
            state = _destroy(_sent_home(state, event.returned_home), destroyed)
            state = msgspec.structs.replace(state, modifiers=tuple(m for m in state.modifiers if m.stat != "duel"))
            action_card = (duel.card or duel.challenger) if state.one_action_at_a_time else None
            return msgspec.structs.replace(state, duel=None, priority=duel.resume, passes=0, acted=True,
                                           action_card=action_card)
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
        case NothingDrawn():
            return state
        case _:
            assert_never(event)


def _pop_pending(state: State) -> State:
    return msgspec.structs.replace(state, pending=state.pending[1:]) if state.pending else state


def _acted(state: State) -> State:
    return msgspec.structs.replace(state, acted=True) if state.priority is not None else state


def _took_action(state: State, seat: str, card: str) -> State:
    """An action in a window (attach, a ring, a strategy, a card's text): R6, the other seat's turn; an effect of the
    seat that just acted (``action_card``), or within a duel, changes no turn."""
    if state.priority is None:
        return state
    if not state.one_action_at_a_time:
        return msgspec.structs.replace(state, acted=True)  # l5r/1 (D3): a seat acted until it passed
    if state.duel is not None or seat != state.priority:
        return state
    return msgspec.structs.replace(state, acted=True, passes=0, priority=state.other(seat), action_card=card)


def _passed(state: State, seat: str, window: str) -> State:
    if window in WINDOWS_OF_TWO and state.one_action_at_a_time:  # R6: two passes in a row close the window
        passes = state.passes + 1
        state = msgspec.structs.replace(state, acted=False, action_card=None)
        if passes >= 2:
            return _close_window(state)
        return msgspec.structs.replace(state, priority=state.other(seat), passes=passes)
    if window in WINDOWS_OF_TWO:  # l5r/1 (D3)
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
        state = _sent_home(state, (target,))
    elif kind == "draw":
        drawn = min(amount, fate_left(state, target))
        state = msgspec.structs.replace(state, pending=state.pending + (Pending(player=target, dest="hand"),) * drawn)
    elif kind == "discard":
        owner = target.split(".", 1)[0]
        p = state.player(owner)
        state = _replace_player(state, owner, hand=_without(p.hand, target), fate_discard=p.fate_discard + (target,))
    elif kind == "remove":
        state = _removed(state, target)
    return _destroy(state, event.destroyed)


def _removed(state: State, target: str) -> State:
    """A card removed from the game (R9): from play (its attachments to the discard pile), a hand or a discard
    pile, to its owner's removed-from-game area."""
    owner = target.split(".", 1)[0]
    p = state.player(owner)
    if any(c.id == target for c in p.cards):
        return _destroy(state, (), (target,))
    if target in p.hand:
        return _replace_player(state, owner, hand=_without(p.hand, target), removed=p.removed + (target,))
    return _replace_player(state, owner, dynasty_discard=tuple(c for c in p.dynasty_discard if c != target),
                           fate_discard=tuple(c for c in p.fate_discard if c != target),
                           discard_dishonored=tuple(c for c in p.discard_dishonored if c != target),
                           removed=p.removed + (target,))


def _battle_resolved(state: State, event: BattleResolved) -> State:
    for seat in (event.attacker, event.defender):
        p = state.player(seat)
        cards = tuple(msgspec.structs.replace(c, dishonored=False) if c.id in event.restored else c for c in p.cards)
        state = _replace_player(state, seat, cards=cards)
    state = _destroy(state, event.destroyed)
    if event.province_destroyed:
        d = state.player(event.defender)
        if any(pr.unseen for pr in d.provinces if pr.number == event.battlefield):  # its card is entered as discarded
            state = msgspec.structs.replace(state, pending=state.pending + (
                Pending(player=d.id, dest="discard", province=event.battlefield),))
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


__all__ = ["MAX_FOCUS", "QUIET_EVENTS", "Army", "Duel", "Focus", "InPlay", "Modifier", "Pending", "PlayerState",
           "Province", "State", "awaited", "deck_ranks", "evolve", "focus_count", "fold",
           "initial_state", "is_quiet", "next_focus", "start_state", "state_to_builtins", "top"]
