"""The game state, ``initial_state``, ``evolve``, ``fold`` and ``state_to_builtins``.

``evolve`` trusts its events and never re-runs a rule (HOUSE_STYLE: decide/evolve). The state is a frozen
msgspec Struct; its containers are tuples, frozensets and one board dict that is never changed once a State holds
it (an old state is never mutated). ``fold`` applies events to a mutable working copy and freezes it once at the
end; ``evolve`` builds each new State from the old one. Seats are indices internally (0 = p1, 1 = p2, ...).

Seats and sides (``engine.lords_of_war.seating``): the board holds each unit as (card, side), the side being the
frame it faces in (§1) and the team it fights for (§10); with more than two seats ``owners`` says which seat each
unit belongs to (with two, the side is the seat). Hands and revealed hands are per seat, decks per army
(``layout.stock``: the three-player team shares one), kill piles and kill counts per side (§10: a team wins
together).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.lords_of_war import geometry as geo
from engine.lords_of_war.catalogue import CARDS, COMMANDER_RANKS
from engine.lords_of_war.prng import SHUFFLE_NAME, shuffled_decks
from engine.lords_of_war.seating import SEAT_INDEX, SEAT_NAMES, TWO, Layout, layout_of
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
    # not kw_only: ``fold`` and ``evolve`` build it positionally from their working copy (same fields, same order)
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


def _pair(pair: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    if len(pair) == 2:
        return (value, pair[1]) if i == 0 else (pair[0], value)
    return pair[:i] + (value,) + pair[i + 1 :]


# -- applying events -----------------------------------------------------------------------------------------
#
# Each event's meaning is written once, below, as a function that changes a *working copy* of the state in place:
# ``_Table``, State's fields in State's order, not frozen, its containers mutable (the board a dict, each player's
# hand, deck and kill pile a list, the counters lists). ``fold`` thaws once, applies every event in place and
# freezes once. Why (issue 7): copy-on-write of the 24-field frozen State for every event (``structs.replace``
# with keyword changes, a board dict copy, tuple surgery on hands and decks) cost ~2.4 µs an event, five times
# msgspec's decoding of it, and refolding stored games is what reading a game costs. ``evolve`` (one event) is at
# the end of the module.

_Table = msgspec.defstruct("_Table", [(name, Any) for name in State.__struct_fields__])
_astuple = msgspec.structs.astuple


def _lists(pair: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    return [list(cards) for cards in pair]


def _tuples(pair: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(cards) for cards in pair)


def _own_board(board: dict[int, Unit]) -> dict[int, Unit]:
    """The working copy's board is its own (thawing copies it), so freezing hands it over as it is."""
    return board


# container field -> (thaw: State's form -> working form, freeze: working form -> State's form)
_FORMS: dict[str, tuple[Any, Any]] = {
    "board": (dict, _own_board),
    "hands": (_lists, _tuples),
    "hand_counts": (list, tuple),
    "decks": (_lists, _tuples),
    "deck_counts": (list, tuple),
    "piles": (_lists, _tuples),
    "kills": (list, tuple),
    "commanders": (list, tuple),
    "owners": (dict, _own_board),
    "spent": (_lists, _tuples),
}
# ``involved`` and ``revealed`` stay frozen in the working copy too (replaced, not changed): few events write them,
# and ``evolve`` then need not thaw them for every card drawn.


_RANK: dict[str, str] = {card_id: card.rank for card_id, card in CARDS.items()}  # a rank without a Card's attribute


def _keys(unbounded: bool) -> dict[str, int]:
    return geo.UNBOUNDED_KEYS if unbounded else geo.MAT_KEYS


def _remove(cards: list[str], card: str) -> None:
    """Remove the first copy of ``card``, if any (table mode: a placed card need not be among the known ones)."""
    if card in cards:
        cards.remove(card)


_NOBODY: frozenset[int] = frozenset()


def _end_of_turn(t: Any) -> None:
    """Reinforce is done: the next deploy phase (the next challenge placement, the extra turn or the next seat)."""
    layout = t.layout
    if t.challenge:
        if t.slot + 1 < len(layout.challengers):
            t.slot += 1
            t.active = layout.challengers[t.slot]
        else:
            t.slot, t.turn, t.challenge = 0, 1, False
            t.active = layout.order[0]
    else:
        if not t.extra_turn:
            t.slot = layout.next_slot(t.slot)
            t.active = layout.order[t.slot]
        t.turn += 1
    if t.phase != "over":
        t.phase = "deploy"
    t.placed_square = None
    t.involved = _NOBODY
    t.extra_turn = False


def _placed(t: Any, event: Placed) -> None:
    p = PLAYER_INDEX[event.player]
    k = (geo.UNBOUNDED_KEYS if t.unbounded else geo.MAT_KEYS)[event.square]
    card = event.card
    layout = t.layout
    t.board[k] = (card, layout.side[p])
    if layout.seats > 2:
        t.owners[k] = p
    hand = t.hands[p]
    if card in hand:  # table mode: the placed card need not be among the known ones
        hand.remove(card)
    elif card in t.middle and layout.side[p] == 1:  # R15: the team's general, deployed from between the team players
        # (a solo player of the same faction places its own general: table mode, from its unknown hand)
        t.middle = _without(t.middle, card)
        t.phase = "reinforce"
        t.placed_square = k
        return
    elif t.table:  # §11: a card of the unknown hand, so of the seat's own army
        t.spent[layout.stock[p]].append(card)
    t.hand_counts[p] -= 1
    t.phase = "reinforce"
    t.placed_square = k


def _nothing(t: Any, event: Any) -> None:
    """Shot and Conceded: facts for the record; the state changes by the events that follow them."""


def _eliminated(t: Any, event: Eliminated) -> None:
    keys = _keys(t.unbounded)
    board = t.board
    piles = t.piles
    kills = t.kills
    commanders = t.commanders
    involved = set(t.involved)
    removed = []
    side = t.layout.side
    owners = t.owners
    for unit in event.units:
        k = keys[unit.square]
        removed.append(k)
        del board[k]
        owners.pop(k, None)
        destroyer = 1 - side[PLAYER_INDEX[unit.owner]]
        piles[destroyer].append(unit.card)
        kills[destroyer] += 1
        if _RANK[unit.card] in COMMANDER_RANKS:
            commanders[destroyer] += 1
        for attacker in unit.attackers:
            involved.add(keys[attacker.square])
    t.involved = frozenset(involved.difference(removed))
    if t.placed_square in removed:
        t.placed_square = None


def _berserker_moved(t: Any, event: BerserkerMoved) -> None:
    keys = _keys(t.unbounded)
    a = keys[event.origin]
    b = keys[event.target]
    board = t.board
    board[b] = board.pop(a)
    if a in t.owners:
        t.owners[b] = t.owners.pop(a)
    if a in t.involved:
        t.involved = (t.involved - {a}) | {b}
    if t.placed_square == a:
        t.placed_square = b


def _extra_turn_granted(t: Any, event: ExtraTurnGranted) -> None:
    t.extra_turn = True


def _card_drawn(t: Any, event: CardDrawn) -> None:
    p = PLAYER_INDEX[event.player]
    stock = t.layout.stock[p]
    card = event.card
    if card is not None:
        t.hands[p].append(card)
        if t.table:
            t.spent[stock].append(card)
        else:
            deck = t.decks[stock]
            if card in deck:
                deck.remove(card)
    t.hand_counts[p] += 1
    t.deck_counts[stock] -= 1
    _end_of_turn(t)


def _recalled(t: Any, event: Recalled) -> None:
    p = PLAYER_INDEX[event.player]
    k = _keys(t.unbounded)[event.square]
    del t.board[k]
    t.owners.pop(k, None)
    t.hands[p].append(event.card)
    t.hand_counts[p] += 1
    _end_of_turn(t)


def _reinforce_skipped(t: Any, event: ReinforceSkipped) -> None:
    _end_of_turn(t)


def _hand_revealed(t: Any, event: HandRevealed) -> None:
    p = PLAYER_INDEX[event.player]
    t.revealed = _pair(tuple(t.revealed), p, tuple(event.cards))
    if t.table:  # the whole hand is known from now on; the cards not known before came from the seat's army
        known = list(t.hands[p])
        spent = t.spent[t.layout.stock[p]]
        for card in event.cards:
            if card in known:
                known.remove(card)
            else:
                spent.append(card)
        t.hands[p] = list(event.cards)


def _game_ended(t: Any, event: GameEnded) -> None:
    t.phase = "over"
    t.winner = event.winner
    t.end_reason = event.reason
    t.adjudication = event.adjudication


def _hand_dealt(t: Any, event: HandDealt) -> None:
    p = PLAYER_INDEX[event.player]
    stock = t.layout.stock[p]
    deck = t.decks[stock]
    for card in event.cards or ():
        _remove(deck, card)
    t.hands[p] = list(event.cards or ())
    t.hand_counts[p] = event.count
    t.deck_counts[stock] -= event.count


def _game_started(t: Any, event: GameStarted) -> None:
    variant = event.variant
    unbounded = variant.unbounded
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
        middle = tuple(c for c in pools[team] if _RANK[c] == "general")
        deck_counts[team] -= len(middle)
    spent: list[list[str]] = []
    if variant.mode == "table":  # §11: what each army's unknown pool has lost at the start
        spent = [[] for _ in range(armies)]
        for k, (card, _) in sorted(board.items(), key=lambda item: geo.board_order(item[0])):
            spent[layout.stock[owners[k] if seats > 2 else board[k][1]]].append(card)
        if middle:
            spent[layout.stock[1]].extend(middle)
    decks: list[list[str]] = [[] for _ in range(armies)]
    if variant.mode == "sealed":
        rest = [[c for c in pool if _RANK[c] != "general"] for pool in pools]  # §3: the general is dealt
        decks = shuffled_decks(event.seed or 0, rest, event.shuffle or SHUFFLE_NAME)
    t.phase = "deploy"
    t.variant = variant
    t.unbounded = unbounded
    t.table = variant.mode == "table"
    t.armies = tuple(event.players)
    t.seed = event.seed
    t.turn = turn
    t.active = active
    t.challenge = challenge
    t.board = board
    t.hands = [[] for _ in range(seats)]
    t.hand_counts = [0] * seats
    t.revealed = (None,) * seats
    t.decks = [list(deck) for deck in decks]
    t.deck_counts = deck_counts
    t.piles = [[], []]
    t.kills = kills
    t.commanders = commanders
    t.layout = layout
    t.slot = slot
    t.owners = owners
    t.middle = middle
    t.spent = spent


# Per event type: the function that applies it and the container fields it writes (``evolve`` thaws just those).
# Dispatch is on the event's exact type, one dict lookup instead of up to thirteen class patterns (the event
# union's Structs are final: a tagged union is never subclassed).
_EVENTS: dict[type, tuple[Any, tuple[str, ...]]] = {
    GameStarted: (_game_started, tuple(_FORMS)),
    HandDealt: (_hand_dealt, ("hands", "hand_counts", "decks", "deck_counts")),
    Placed: (_placed, ("board", "hands", "hand_counts", "owners", "spent")),
    HandRevealed: (_hand_revealed, ("hands", "spent")),
    Shot: (_nothing, ()),
    Eliminated: (_eliminated, ("board", "piles", "kills", "commanders", "owners")),
    BerserkerMoved: (_berserker_moved, ("board", "owners")),
    ExtraTurnGranted: (_extra_turn_granted, ()),
    CardDrawn: (_card_drawn, ("hands", "hand_counts", "decks", "deck_counts", "spent")),
    Recalled: (_recalled, ("board", "hands", "hand_counts", "owners")),
    ReinforceSkipped: (_reinforce_skipped, ()),
    Conceded: (_nothing, ()),
    GameEnded: (_game_ended, ()),
}

_INDEX = {name: i for i, name in enumerate(State.__struct_fields__)}
# the same, ready for the hot paths: (apply, ((field index, thaw, freeze), ...))
_APPLY: dict[type, Any] = {kind: apply for kind, (apply, _) in _EVENTS.items()}
_EVOLVE: dict[type, tuple[Any, tuple[tuple[int, Any, Any], ...]]] = {
    kind: (apply, tuple((_INDEX[name], *_FORMS[name]) for name in writes)) for kind, (apply, writes) in _EVENTS.items()
}
_ALL_FORMS: tuple[tuple[int, Any, Any], ...] = tuple((_INDEX[name], *form) for name, form in _FORMS.items())


def _not_an_event(event: Any) -> TypeError:
    return TypeError(f"not a Lords of War event: {event!r}")


def _thaw(state: State, forms: tuple[tuple[int, Any, Any], ...] = _ALL_FORMS) -> Any:
    values = list(_astuple(state))
    for i, thaw, _ in forms:
        values[i] = thaw(values[i])
    return _Table(*values)


def _freeze(t: Any, forms: tuple[tuple[int, Any, Any], ...] = _ALL_FORMS) -> State:
    values = list(_astuple(t))
    for i, _, freeze in forms:
        values[i] = freeze(values[i])
    return State(*values)


def working_copy(state: State) -> Any:
    """A mutable copy of ``state`` that ``apply_events`` moves on in place (``fold`` then freezes it into a State).

    Engine-internal (``fold``, ``verify.redecide``). ``decide`` may read it as it reads a State, since the rules
    only read the state and the working copy has State's fields (lists where a State has tuples).
    """
    return _thaw(state)


def frozen(t: Any) -> State:
    """The State a working copy stands for (``fold``'s last step); the working copy is not to be used after."""
    return _freeze(t)


def apply_events(t: Any, events: Iterable[LordsOfWarEvent]) -> None:
    """``evolve`` over ``events``, in place on a working copy."""
    apply_of = _APPLY
    n = 0
    for event in events:
        apply = apply_of.get(type(event))
        if apply is None:
            raise _not_an_event(event)
        apply(t, event)
        n += 1
    t.seq += n


def fold(events: Iterable[LordsOfWarEvent], state: State | None = None) -> State:
    """``evolve`` over ``events`` from ``state`` (default ``initial_state()``), on one working copy."""
    t = _thaw(initial_state() if state is None else state)
    apply_events(t, events)
    return _freeze(t)


# -- evolve: one event --------------------------------------------------------------------------------------
#
# ``evolve`` applies a rare event (game_started, hand_dealt, a reveal, a berserker move, the extra turn, a skipped
# reinforcement, the end) with the functions above: thaw what it writes, apply, freeze. The four events that make
# ~90% of a game (placed, card_drawn, eliminated, recalled), and the two that change nothing but ``seq``, have a
# copy-on-write path instead, because thawing and freezing a hand pair, a deck pair and counters for a single
# event cost more (~3 µs an event) than building the new State directly (~1 µs): the replay cursor, the live
# service and the re-decide loop step one event at a time. These paths repeat those four events' meaning; the
# property tests hold ``evolve`` at every step of a bot game equal to ``fold`` of the same prefix.

_replace = msgspec.structs.replace


def _next_turn(state: State) -> tuple[int, int, bool, str]:
    """``_end_of_turn`` for the copy-on-write paths (two seats: the slot is the active seat): (active, turn,
    challenge, phase) of the next deploy phase."""
    if state.challenge:
        if state.active == 0:
            active, turn, challenge = 1, 0, True
        else:
            active, turn, challenge = 0, 1, False
    else:
        active = state.active if state.extra_turn else 1 - state.active
        turn, challenge = state.turn + 1, False
    return active, turn, challenge, "deploy" if state.phase != "over" else "over"


def _evolve_placed(state: State, event: Placed) -> State:
    p = PLAYER_INDEX[event.player]
    k = _keys(state.unbounded)[event.square]
    board = dict(state.board)
    board[k] = (event.card, p)
    hand = state.hands[p]
    spent = state.spent
    if state.table and event.card not in hand:  # §11: a card of the unknown hand
        spent = _pair(spent, p, spent[p] + (event.card,))
    return _replace(
        state,
        seq=state.seq + 1,
        phase="reinforce",
        board=board,
        hands=_pair(state.hands, p, _without(hand, event.card)),
        hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] - 1),
        placed_square=k,
        spent=spent,
    )


def _evolve_nothing(state: State, event: Any) -> State:
    return _replace(state, seq=state.seq + 1)


def _evolve_eliminated(state: State, event: Eliminated) -> State:
    keys = _keys(state.unbounded)
    board = dict(state.board)
    piles = list(state.piles)
    kills = list(state.kills)
    commanders = list(state.commanders)
    involved = set(state.involved)
    removed = set()
    for unit in event.units:
        k = keys[unit.square]
        removed.add(k)
        del board[k]
        destroyer = 1 - PLAYER_INDEX[unit.owner]
        piles[destroyer] = piles[destroyer] + (unit.card,)
        kills[destroyer] += 1
        if _RANK[unit.card] in COMMANDER_RANKS:
            commanders[destroyer] += 1
        for attacker in unit.attackers:
            involved.add(keys[attacker.square])
    placed = state.placed_square
    return _replace(
        state,
        seq=state.seq + 1,
        board=board,
        piles=(piles[0], piles[1]),
        kills=(kills[0], kills[1]),
        commanders=(commanders[0], commanders[1]),
        involved=frozenset(involved - removed),
        placed_square=None if placed in removed else placed,
    )


def _evolve_card_drawn(state: State, event: CardDrawn) -> State:
    p = PLAYER_INDEX[event.player]
    card = event.card
    hands = state.hands
    decks = state.decks
    spent = state.spent
    if card is not None:
        hands = _pair(hands, p, hands[p] + (card,))
        if state.table:
            spent = _pair(spent, p, spent[p] + (card,))
        else:
            decks = _pair(decks, p, _without(decks[p], card))
    active, turn, challenge, phase = _next_turn(state)
    return _replace(
        state,
        seq=state.seq + 1,
        phase=phase,
        active=active,
        slot=active,  # two seats: the slot is the active seat
        turn=turn,
        challenge=challenge,
        placed_square=None,
        involved=_NOBODY,
        extra_turn=False,
        hands=hands,
        hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] + 1),
        decks=decks,
        deck_counts=_pair(state.deck_counts, p, state.deck_counts[p] - 1),
        spent=spent,
    )


def _evolve_recalled(state: State, event: Recalled) -> State:
    p = PLAYER_INDEX[event.player]
    board = dict(state.board)
    del board[_keys(state.unbounded)[event.square]]
    active, turn, challenge, phase = _next_turn(state)
    return _replace(
        state,
        seq=state.seq + 1,
        phase=phase,
        active=active,
        slot=active,  # two seats: the slot is the active seat
        turn=turn,
        challenge=challenge,
        placed_square=None,
        involved=_NOBODY,
        extra_turn=False,
        board=board,
        hands=_pair(state.hands, p, state.hands[p] + (event.card,)),
        hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] + 1),
    )


_COPY_ON_WRITE: dict[type, Callable[[State, Any], State]] = {
    Placed: _evolve_placed,
    Shot: _evolve_nothing,
    Eliminated: _evolve_eliminated,
    CardDrawn: _evolve_card_drawn,
    Recalled: _evolve_recalled,
    Conceded: _evolve_nothing,
}


def evolve(state: State, event: LordsOfWarEvent) -> State:
    """Apply one recorded fact. Trusts its input: no rule is checked here."""
    kind = type(event)
    fast = _COPY_ON_WRITE.get(kind) if state.layout.seats == 2 else None  # §10 games take the general path
    if fast is not None:
        return fast(state, event)
    try:
        apply, forms = _EVOLVE[kind]
    except KeyError:
        raise _not_an_event(event) from None
    t = _thaw(state, forms)
    apply(t, event)
    t.seq += 1
    return _freeze(t, forms)


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
    if many:
        data["teams"] = {name: list(layout.members(side)) for side, name in enumerate(sides)}
        for p, entry in enumerate(data["players"]):
            entry["team"] = sides[layout.side[p]]
            entry["frame"] = layout.side[p]
        if layout.shared_general:
            data["middle"] = list(state.middle)
    return data
