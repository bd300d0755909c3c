"""The game state, ``initial_state``, ``evolve``, ``fold`` and ``state_to_builtins``.

``evolve`` trusts its events and never re-runs a rule (HOUSE_STYLE: decide/evolve). The state is a frozen
msgspec Struct; its containers are tuples, frozensets and two dicts (the board, the owners) that are never changed
once a State holds them (an old state is never mutated). Each event's meaning is written once, ``apply`` on a
mutable working copy (``Work``); ``evolve`` and ``fold`` are derived from it (``engine.folding``). Seats are
indices internally (0 = p1, 1 = p2, ...).

Seats and sides (``engine.lords_of_war.seating``): the board holds each unit as (card, side), the side being the
frame it faces in (§1) and the team it fights for (§10); with more than two seats ``owners`` says which seat each
unit belongs to (with two, the side is the seat). Hands and revealed hands are per seat, decks per army
(``layout.stock``: the three-player team shares one), kill piles and kill counts per side (§10: a team wins
together).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.folding import Folding
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.catalogue import DEFAULT_TABLE, CardTable, table_for
from engine.lords_of_war.prng import SHUFFLE_NAME, shuffled_decks
from engine.lords_of_war.seating import SEAT_INDEX, SEAT_NAMES, TWO, Layout, layout_of
from engine.steps import Steps
from events import Adjudication
from events.lords_of_war import (
    ArmyRecord,
    BerserkerMoved,
    CardDrawn,
    Conceded,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    GameStarted,
    HandDealt,
    HandRevealed,
    LordsOfWarEvent,
    Placed,
    Recalled,
    ReinforceSkipped,
    Shot,
    Variant,
)

PLAYERS: tuple[str, str] = ("p1", "p2")  # the two sides' seats of a two-player game
PLAYER_INDEX: dict[str, int] = SEAT_INDEX  # "p1" -> 0 ... "p6" -> 5

Unit = tuple[str, int]  # (card id, side): the side is the seat in a two-player game


class State(msgspec.Struct, frozen=True):
    # not kw_only: ``freeze`` builds it positionally from the working copy (``Work``: same fields, same order)
    seq: int = 0  # events folded
    phase: str = "setup"  # setup | deploy | reinforce | over
    variant: Variant = Variant()
    unbounded: bool = False
    table: bool = False
    armies: tuple[ArmyRecord, ...] = ()
    seed: int | None = None
    turn: int = 0  # 0 = the challenge (§4), then 1, 2, ...
    active: int = 0
    challenge: bool = True
    board: dict[int, Unit] = {}
    hands: tuple[tuple[str, ...], ...] = ((), ())  # per seat; sealed: the hand; table: the known cards
    hand_counts: tuple[int, ...] = (0, 0)  # per seat
    decks: tuple[tuple[str, ...], ...] = ((), ())  # per army (layout.stock); sealed: top first; table: empty
    deck_counts: tuple[int, ...] = (0, 0)  # per army
    piles: tuple[tuple[str, ...], ...] = ((), ())  # each side's kill pile (cards it destroyed)
    kills: tuple[int, ...] = (0, 0)  # cards destroyed by each side (position kills included)
    commanders: tuple[int, ...] = (0, 0)  # commanders (command + general) destroyed by each side
    placed_square: int | None = None  # the unit placed this turn (follows a berserker move)
    involved: frozenset[int] = frozenset()  # units involved in a kill this turn (§5.3 (3))
    extra_turn: bool = False  # §5.4: granted this turn, taken after reinforcing
    revealed: tuple[tuple[str, ...] | None, ...] = (None, None)  # per seat: the last forced reveal
    winner: str | None = None  # a seat (two players), a team name (§10), "draw" or None
    end_reason: str | None = None
    layout: Layout = TWO  # the seats (seating.py)
    slot: int = 0  # position in layout.order (in the challenge: in layout.challengers)
    owners: dict[int, int] = {}  # square -> seat of the unit on it, more than two seats only
    middle: tuple[str, ...] = ()  # §10 three players, R15: the team's general lying between the team players
    # table mode (§11), per army (layout.stock): the army's cards known to have left its unknown pool (its deck and
    # the unknown cards of its players' hands): placed from an unknown hand, drawn by name, shown in a reveal, on
    # the mat in a position, the general between the team players. A card never returns to the pool (recalled
    # cards are known; destroyed ones are in a kill pile), so "copies left" is the army's count minus these.
    spent: tuple[tuple[str, ...], ...] = ()
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)
    # issue 30: the cards of the game's catalogue (game_started.catalogue), None for the default; read through
    # ``cards_of``. One table per game, shared by every state of it (thaw and freeze pass it on, never copy it).
    cards: CardTable | None = None


def initial_state() -> State:
    return State()


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` minus the first copy of ``card`` (unchanged when absent)."""
    if cards and cards[0] == card:
        return cards[1:]
    try:
        i = cards.index(card)
    except ValueError:
        return cards
    return cards[:i] + cards[i + 1 :]


# -- applying events: Work, thaw, apply, freeze -------------------------------------------------------------
#
# Each event's meaning is written once, in ``apply``, as a change to ``Work``: State's fields in State's order,
# mutable, its containers lists and dicts. The framework (``engine.folding.Folding``) derives both readers:
# ``evolve`` (thaw, apply one event, freeze: the replay cursor, the service after a decision) and ``fold`` (thaw
# once, apply every event, freeze once: loading a game, statistics, verify). Why a working copy (issue 7):
# copy-on-write of the 30-field frozen State for every event cost five times msgspec's decoding of it, and refolding
# stored games is what reading a game costs. Why one (issue 29): a second, copy-on-write ``evolve`` beside it had to
# be kept equal to it by tests. Why a slotted dataclass: an attribute write on a mutable msgspec Struct goes through
# msgspec's own setattr and cost twice a slot's (fold was 13% slower with it; ``apply`` writes several a event).


@dataclass(slots=True)
class Work:
    """A mutable working copy of a State (``thaw``): the same fields in the same order, per-seat, per-army and
    per-side parts as lists, ``involved`` a set. It shares nothing mutable with any State (``thaw`` and ``freeze``
    copy), so the state it came from never changes and the states it gives never change after. Decks, kill piles,
    ``spent``, ``revealed`` and ``middle`` stay tuples here (replaced, not changed: an event writes one entry at
    most, and ``evolve`` then copies a list of tuples, not every card)."""

    seq: int
    phase: str
    variant: Variant
    unbounded: bool
    table: bool
    armies: tuple[ArmyRecord, ...]
    seed: int | None
    turn: int
    active: int
    challenge: bool
    board: dict[int, Unit]
    hands: list[list[str]]
    hand_counts: list[int]
    decks: list[tuple[str, ...]]
    deck_counts: list[int]
    piles: list[tuple[str, ...]]
    kills: list[int]
    commanders: list[int]
    placed_square: int | None
    involved: set[int]
    extra_turn: bool
    revealed: tuple[tuple[str, ...] | None, ...]
    winner: str | None
    end_reason: str | None
    layout: Layout
    slot: int
    owners: dict[int, int]
    middle: tuple[str, ...]
    spent: list[tuple[str, ...]]
    adjudication: Adjudication | None
    cards: CardTable | None


# ``thaw`` and ``freeze`` pass the fields positionally: the two field lists must stay one.
assert Work.__slots__ == State.__struct_fields__, "Work must have State's fields in State's order"


def thaw(s: State) -> Work:
    """A working copy of ``s`` that shares nothing mutable with it."""
    return Work(
        s.seq, s.phase, s.variant, s.unbounded, s.table, s.armies, s.seed, s.turn, s.active, s.challenge,
        dict(s.board), list(map(list, s.hands)), list(s.hand_counts), list(s.decks),
        list(s.deck_counts), list(s.piles), list(s.kills), list(s.commanders), s.placed_square,
        set(s.involved), s.extra_turn, s.revealed, s.winner, s.end_reason, s.layout, s.slot, dict(s.owners),
        s.middle, list(s.spent), s.adjudication, s.cards,
    )


def freeze(w: Work) -> State:
    """The State ``w`` stands for; it shares nothing mutable with ``w``, which may go on being applied to."""
    return State(
        w.seq, w.phase, w.variant, w.unbounded, w.table, w.armies, w.seed, w.turn, w.active, w.challenge,
        dict(w.board), tuple(map(tuple, w.hands)), tuple(w.hand_counts), tuple(w.decks),
        tuple(w.deck_counts), tuple(w.piles), tuple(w.kills), tuple(w.commanders), w.placed_square,
        frozenset(w.involved), w.extra_turn, w.revealed, w.winner, w.end_reason, w.layout, w.slot, dict(w.owners),
        w.middle, tuple(w.spent), w.adjudication, w.cards,
    )


# Each event type's step (engine.steps: found by the event's exact type; a ``match`` would pay a failed class pattern,
# ~200 ns against a msgspec Struct class, for every case before the right one). ``STEPS.check`` at the end proves
# every event of the union has its step.
STEPS: Steps[Work] = Steps()
on = STEPS.on


def started_cards(event: GameStarted) -> CardTable | None:
    """The cards of the catalogue a ``game_started`` records (issue 30), None for the default."""
    return table_for(event.catalogue) if event.catalogue else None


def cards_of(state: State | Work) -> CardTable:
    """The cards of the game ``state`` is of: its catalogue's (issue 30), else the default catalogue's. Everything
    that reads a card of a game (rules, bots, notation, views) reads it here."""
    cards = state.cards
    return DEFAULT_TABLE if cards is None else cards


_KEYS: tuple[dict[str, int], dict[str, int]] = (geo.MAT_KEYS, geo.UNBOUNDED_KEYS)  # by ``unbounded``: name -> key


def _remove(cards: list[str], card: str) -> None:
    """Remove the first copy of ``card``, if any (table mode: a placed card need not be among the known ones)."""
    if card in cards:
        cards.remove(card)


def _end_of_turn(w: Work) -> None:
    """Reinforce is done: the next deploy phase (the next challenge placement, the extra turn or the next seat)."""
    layout = w.layout
    if w.challenge:
        if w.slot + 1 < len(layout.challengers):
            w.slot += 1
            w.active = layout.challengers[w.slot]
        else:
            w.slot, w.turn, w.challenge = 0, 1, False
            w.active = layout.order[0]
    else:
        if not w.extra_turn:
            slot = w.slot + 1
            if slot == len(layout.order):  # the turn order repeats (``Layout.next_slot``)
                slot = 0
            w.slot = slot
            w.active = layout.order[slot]
        w.turn += 1
    if w.phase != "over":
        w.phase = "deploy"
    w.placed_square = None
    w.involved.clear()
    w.extra_turn = False


@on(Placed)
def _placed(w: Work, event: Placed) -> None:
    p = PLAYER_INDEX[event.player]
    k = _KEYS[w.unbounded][event.square]
    card = event.card
    layout = w.layout
    w.board[k] = (card, layout.side[p])
    if layout.seats > 2:
        w.owners[k] = p
    w.phase = "reinforce"
    w.placed_square = k
    hand = w.hands[p]
    if card in hand:  # table mode: the placed card need not be among the known ones
        hand.remove(card)
    elif card in w.middle and layout.side[p] == 1:  # R15: the team's general, deployed from between the team players
        # (a solo player of the same faction places its own general: table mode, from its unknown hand)
        w.middle = _without(w.middle, card)
        return
    elif w.table:  # §11: a card of the unknown hand, so of the seat's own army
        w.spent[layout.stock[p]] += (card,)
    w.hand_counts[p] -= 1


@on(Shot)
def _shot(w: Work, event: Shot) -> None:
    """A fact for the record: the state changes by the events that follow it."""


@on(Conceded)
def _conceded(w: Work, event: Conceded) -> None:
    """A fact for the record: the game_ended that follows says the rest."""


@on(GameEnded)
def _game_ended(w: Work, event: GameEnded) -> None:
    w.phase = "over"
    w.winner = event.winner
    w.end_reason = event.reason
    w.adjudication = event.adjudication


@on(ExtraTurnGranted)
def _extra_turn_granted(w: Work, event: ExtraTurnGranted) -> None:
    w.extra_turn = True  # §5.4: taken after reinforcing


@on(ReinforceSkipped)
def _reinforce_skipped(w: Work, event: ReinforceSkipped) -> None:
    _end_of_turn(w)


@on(Eliminated)
def _eliminated(w: Work, event: Eliminated) -> None:
    keys = _KEYS[w.unbounded]
    board = w.board
    owners = w.owners
    side = w.layout.side
    involved = w.involved
    piles = w.piles
    cards = w.cards  # the game's (issue 30), inline: cards_of's call is measurable here
    commanders = DEFAULT_TABLE.commanders if cards is None else cards.commanders
    removed = []
    for unit in event.units:
        k = keys[unit.square]
        removed.append(k)
        del board[k]
        if owners:  # more than two seats
            del owners[k]
        destroyer = 1 - side[PLAYER_INDEX[unit.owner]]
        card = unit.card
        piles[destroyer] += (card,)
        w.kills[destroyer] += 1
        if card in commanders:
            w.commanders[destroyer] += 1
        for attacker in unit.attackers:
            involved.add(keys[attacker.square])
    involved.difference_update(removed)
    if w.placed_square in removed:
        w.placed_square = None


@on(BerserkerMoved)
def _berserker_moved(w: Work, event: BerserkerMoved) -> None:
    keys = _KEYS[w.unbounded]
    a = keys[event.origin]
    b = keys[event.target]
    board = w.board
    board[b] = board.pop(a)
    if a in w.owners:
        w.owners[b] = w.owners.pop(a)
    if a in w.involved:
        w.involved.remove(a)
        w.involved.add(b)
    if w.placed_square == a:
        w.placed_square = b


@on(CardDrawn)
def _card_drawn(w: Work, event: CardDrawn) -> None:
    p = PLAYER_INDEX[event.player]
    stock = w.layout.stock[p]
    card = event.card
    if card is not None:
        w.hands[p].append(card)
        if w.table:
            w.spent[stock] += (card,)
        else:
            w.decks[stock] = _without(w.decks[stock], card)  # sealed: the top card
    w.hand_counts[p] += 1
    w.deck_counts[stock] -= 1
    _end_of_turn(w)


@on(Recalled)
def _recalled(w: Work, event: Recalled) -> None:
    p = PLAYER_INDEX[event.player]
    k = _KEYS[w.unbounded][event.square]
    del w.board[k]
    w.owners.pop(k, None)
    w.hands[p].append(event.card)
    w.hand_counts[p] += 1
    _end_of_turn(w)


@on(HandRevealed)
def _hand_revealed(w: Work, event: HandRevealed) -> None:
    p = PLAYER_INDEX[event.player]
    cards = tuple(event.cards)
    w.revealed = w.revealed[:p] + (cards,) + w.revealed[p + 1 :]
    if w.table:  # the whole hand is known from now on; the cards not known before came from the seat's army
        known = w.hands[p]
        unknown = []
        for card in cards:
            if card in known:
                known.remove(card)
            else:
                unknown.append(card)
        w.spent[w.layout.stock[p]] += tuple(unknown)
        w.hands[p] = list(cards)


@on(HandDealt)
def _hand_dealt(w: Work, event: HandDealt) -> None:
    p = PLAYER_INDEX[event.player]
    stock = w.layout.stock[p]
    deck = list(w.decks[stock])
    for card in event.cards or ():
        _remove(deck, card)
    w.decks[stock] = tuple(deck)
    w.hands[p] = list(event.cards or ())
    w.hand_counts[p] = event.count
    w.deck_counts[stock] -= event.count


@on(GameStarted)
def _game_started(w: Work, event: GameStarted) -> None:
    variant = event.variant
    unbounded = variant.unbounded
    table = started_cards(event)
    generals = (DEFAULT_TABLE if table is None else table).generals
    layout = layout_of(len(event.players))
    seats = layout.seats
    armies = len(set(layout.stock))
    first_seat = [layout.stock.index(a) for a in range(armies)]  # the seat whose record holds each army
    board: dict[int, Unit] = {}
    owners: dict[int, int] = {}
    pools: list[list[str]] = [list(event.players[s].cards) for s in first_seat]
    kills = [0, 0]
    commanders = [0, 0]
    active, turn, challenge, slot = layout.challengers[0], 0, True, 0
    if event.position is not None:
        for unit in event.position.board:
            p = PLAYER_INDEX[unit.owner]
            k = geo.key_of(unit.square, unbounded)
            board[k] = (unit.card, layout.side[p])
            if seats > 2:
                owners[k] = p
            pools[layout.stock[p]].remove(unit.card)
        side_index = {layout.side_name(side): side for side in (0, 1)}
        for name, record in event.position.kills.items():
            kills[side_index[name]] = record.total
            commanders[side_index[name]] = record.commanders
        active, turn, challenge = PLAYER_INDEX[event.position.to_move], 1, False
        slot = layout.order.index(active)
    middle: tuple[str, ...] = ()
    deck_counts = [len(pool) for pool in pools]
    if layout.shared_general:  # R15: the team's general lies between the team players, outside the deck
        team = layout.stock[1]
        middle = tuple(c for c in pools[team] if c in generals)
        deck_counts[team] -= len(middle)
    spent: list[list[str]] = []
    if variant.mode == "table":  # §11: what each army's unknown pool has lost at the start
        spent = [[] for _ in range(armies)]
        for k, (card, _) in sorted(board.items(), key=lambda item: geo.board_order(item[0])):
            spent[layout.stock[owners[k] if seats > 2 else board[k][1]]].append(card)
        if middle:
            spent[layout.stock[1]].extend(middle)
    decks: list[tuple[str, ...]] = [()] * armies
    if variant.mode == "sealed":
        rest = [[c for c in pool if c not in generals] for pool in pools]  # §3: the general is dealt
        decks = list(map(tuple, shuffled_decks(event.seed or 0, rest, event.shuffle or SHUFFLE_NAME)))
    w.phase = "deploy"
    w.variant = variant
    w.unbounded = unbounded
    w.table = variant.mode == "table"
    w.armies = tuple(event.players)
    w.seed = event.seed
    w.turn = turn
    w.active = active
    w.challenge = challenge
    w.board = board
    w.hands = [[] for _ in range(seats)]
    w.hand_counts = [0] * seats
    w.revealed = (None,) * seats
    w.decks = decks
    w.deck_counts = deck_counts
    w.piles = [(), ()]
    w.kills = kills
    w.commanders = commanders
    w.layout = layout
    w.slot = slot
    w.owners = owners
    w.middle = middle
    w.spent = list(map(tuple, spent))
    w.cards = table


STEPS.check(LordsOfWarEvent)
_STEP = STEPS.table


def apply(w: Work, event: LordsOfWarEvent) -> None:
    """Apply one recorded fact to ``w`` (its step above). Trusts its input: no rule is checked here; what is not a
    Lords of War event is refused by name."""
    try:
        step = _STEP[type(event)]
    except KeyError:
        raise TypeError(f"not a Lords of War event: {event!r}") from None
    w.seq += 1
    step(w, event)


FOLDING: Folding[State, Work, LordsOfWarEvent] = Folding(initial_state, thaw, apply, freeze)
evolve = FOLDING.evolve  # one event: thaw, apply, freeze
fold = FOLDING.fold  # every event from a state (default ``initial_state()``): thaw once, apply each, freeze once


def seat_of(state: State, k: int) -> int:
    """The seat owning the unit on ``k`` (two seats: its side)."""
    return state.owners[k] if state.layout.seats > 2 else state.board[k][1]


def state_to_builtins(state: State) -> dict[str, Any]:
    """The state as plain JSON data in the contract's shape (view=all); see docs/events.md for every field.

    With three or more seats (§10) kills and kill piles are the teams' (keyed by team name), and the state has
    ``teams`` (team name -> its seats), ``middle`` (three players: the team's general between the team players,
    R15), and each of ``players`` has its ``team`` and ``frame`` (0: faces as p1, 1: as p2)."""
    unbounded = state.unbounded
    layout = state.layout
    seats = SEAT_NAMES[: layout.seats] if state.phase != "setup" else PLAYERS
    many = layout.seats > 2
    owners = state.owners
    board = [
        {"square": geo.name(k, unbounded), "card": card, "owner": SEAT_NAMES[owners[k] if many else owner]}
        for k, (card, owner) in sorted(state.board.items(), key=lambda item: geo.board_order(item[0]))
    ]
    hands: dict[str, Any] = {}
    for p, player in enumerate(seats):
        hand: dict[str, Any] = {"count": state.hand_counts[p]}
        if state.table:
            hand["known"] = list(state.hands[p])
        else:
            hand["cards"] = list(state.hands[p])
        hands[player] = hand
    sides = tuple(layout.side_name(side) for side in (0, 1))
    started = state.phase != "setup"
    data: dict[str, Any] = {
        "seq": state.seq,
        "turn": state.turn,
        "active": SEAT_NAMES[state.active] if started else None,  # when over: who was to act last
        "phase": state.phase,
        "challenge": state.challenge if started else False,
        "board": board,
        "kills": {
            name: {"total": state.kills[side], "commanders": state.commanders[side]} for side, name in enumerate(sides)
        },
        "kill_piles": {name: list(state.piles[side]) for side, name in enumerate(sides)},
        "hands": hands,
        "deck": {player: state.deck_counts[layout.stock[p]] for p, player in enumerate(seats)},
        "placed_this_turn": None if state.placed_square is None else geo.name(state.placed_square, unbounded),
        "involved": sorted(
            (geo.name(k, unbounded) for k in state.involved),
            key=lambda n: geo.board_order(geo.key_of(n, unbounded)),
        ),
        "extra_turn": state.extra_turn,
        "revealed": {player: list(r) for player, r in zip(seats, state.revealed, strict=True) if r is not None},
        "variant": msgspec.to_builtins(state.variant),
        "players": [{"id": a.id, "name": a.name, "army_name": a.army_name} for a in state.armies],
        "winner": state.winner if state.phase != "over" else state.winner or "draw",
        "end_reason": state.end_reason,
        "adjudication": msgspec.to_builtins(state.adjudication) if state.adjudication is not None else None,
    }
    if state.cards is not None:  # issue 30: the game's catalogue by id only (its cards: GET /catalogues/{id})
        data["catalogue"] = state.cards.id
    if many:
        data["teams"] = {name: list(layout.members(side)) for side, name in enumerate(sides)}
        for p, entry in enumerate(data["players"]):
            entry["team"] = sides[layout.side[p]]
            entry["frame"] = layout.side[p]
        if layout.shared_general:
            data["middle"] = list(state.middle)
    return data
