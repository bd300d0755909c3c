"""The game state, ``initial_state``, ``evolve``, ``fold`` and ``state_to_builtins``.

``evolve`` trusts its events and never re-runs a rule (HOUSE_STYLE: decide/evolve). The state is a frozen
msgspec Struct; its containers are tuples, frozensets and one board dict that is never changed once a State holds
it (an old state is never mutated). ``fold`` applies events to a mutable working copy and freezes it once at the
end; ``evolve`` builds each new State from the old one. Players are indices internally (0 = p1, 1 = p2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.lords_of_war import geometry as geo
from engine.lords_of_war.cards import CARDS, COMMANDER_RANKS
from engine.lords_of_war.prng import SHUFFLE_NAME, shuffled_decks
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

PLAYERS: tuple[str, str] = ("p1", "p2")
PLAYER_INDEX: dict[str, int] = {"p1": 0, "p2": 1}

Unit = tuple[str, int]  # (card id, owner index)


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
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # sealed: the hand; table: the known cards
    hand_counts: tuple[int, int] = (0, 0)
    decks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # sealed: top first; table: empty
    deck_counts: tuple[int, int] = (0, 0)
    piles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # each player's kill pile (cards they destroyed)
    kills: tuple[int, int] = (0, 0)  # cards destroyed by each player (position kills included)
    commanders: tuple[int, int] = (0, 0)  # commanders (command + general) destroyed by each player
    placed_square: int | None = None  # the unit placed this turn (follows a berserker move)
    involved: frozenset[int] = frozenset()  # units involved in a kill this turn (§5.3 (3))
    extra_turn: bool = False  # §5.4: granted this turn, taken after reinforcing
    revealed: tuple[tuple[str, ...] | None, tuple[str, ...] | None] = (None, None)  # last forced reveal
    winner: str | None = None
    end_reason: str | None = None


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


def _pair(pair: tuple[Any, Any], i: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if i == 0 else (pair[0], value)


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


def _lists(pair: tuple[tuple[str, ...], tuple[str, ...]]) -> list[list[str]]:
    return [list(pair[0]), list(pair[1])]


def _tuples(pair: list[list[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (tuple(pair[0]), tuple(pair[1]))


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
    """Reinforce is done: the next deploy phase (the challenge's second placement, the extra turn or the opponent)."""
    if t.challenge:
        if t.active == 0:
            t.active, t.turn = 1, 0
        else:
            t.active, t.turn, t.challenge = 0, 1, False
    else:
        if not t.extra_turn:
            t.active = 1 - t.active
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
    t.board[k] = (card, p)
    hand = t.hands[p]
    if card in hand:  # table mode: the placed card need not be among the known ones
        hand.remove(card)
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
    for unit in event.units:
        k = keys[unit.square]
        removed.append(k)
        del board[k]
        destroyer = 1 - PLAYER_INDEX[unit.owner]
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
    if a in t.involved:
        t.involved = (t.involved - {a}) | {b}
    if t.placed_square == a:
        t.placed_square = b


def _extra_turn_granted(t: Any, event: ExtraTurnGranted) -> None:
    t.extra_turn = True


def _card_drawn(t: Any, event: CardDrawn) -> None:
    p = PLAYER_INDEX[event.player]
    card = event.card
    if card is not None:
        t.hands[p].append(card)
        if not t.table:
            deck = t.decks[p]
            if card in deck:
                deck.remove(card)
    t.hand_counts[p] += 1
    t.deck_counts[p] -= 1
    _end_of_turn(t)


def _recalled(t: Any, event: Recalled) -> None:
    p = PLAYER_INDEX[event.player]
    del t.board[_keys(t.unbounded)[event.square]]
    t.hands[p].append(event.card)
    t.hand_counts[p] += 1
    _end_of_turn(t)


def _reinforce_skipped(t: Any, event: ReinforceSkipped) -> None:
    _end_of_turn(t)


def _hand_revealed(t: Any, event: HandRevealed) -> None:
    p = PLAYER_INDEX[event.player]
    t.revealed = _pair(t.revealed, p, tuple(event.cards))
    if t.table:  # the whole hand is known from now on
        t.hands[p] = list(event.cards)


def _game_ended(t: Any, event: GameEnded) -> None:
    t.phase = "over"
    t.winner = event.winner
    t.end_reason = event.reason


def _hand_dealt(t: Any, event: HandDealt) -> None:
    p = PLAYER_INDEX[event.player]
    deck = t.decks[p]
    for card in event.cards or ():
        _remove(deck, card)
    t.hands[p] = list(event.cards or ())
    t.hand_counts[p] = event.count
    t.deck_counts[p] -= event.count


def _game_started(t: Any, event: GameStarted) -> None:
    variant = event.variant
    unbounded = variant.unbounded
    board: dict[int, Unit] = {}
    pools: list[list[str]] = [list(a.cards) for a in event.players]
    kills = [0, 0]
    commanders = [0, 0]
    active, turn, challenge = 0, 0, True
    if event.position is not None:
        for unit in event.position.board:
            p = PLAYER_INDEX[unit.owner]
            board[geo.key_of(unit.square, unbounded)] = (unit.card, p)
            pools[p].remove(unit.card)
        for player, k in event.position.kills.items():
            kills[PLAYER_INDEX[player]] = k.total
            commanders[PLAYER_INDEX[player]] = k.commanders
        active, turn, challenge = PLAYER_INDEX[event.position.to_move], 1, False
    decks: list[list[str]] = [[], []]
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
    t.decks = [decks[0], decks[1]]
    t.deck_counts = [len(pools[0]), len(pools[1])]
    t.kills = kills
    t.commanders = commanders


# Per event type: the function that applies it and the container fields it writes (``evolve`` thaws just those).
# Dispatch is on the event's exact type, one dict lookup instead of up to thirteen class patterns (the event
# union's Structs are final: a tagged union is never subclassed).
_EVENTS: dict[type, tuple[Any, tuple[str, ...]]] = {
    GameStarted: (_game_started, tuple(_FORMS)),
    HandDealt: (_hand_dealt, ("hands", "hand_counts", "decks", "deck_counts")),
    Placed: (_placed, ("board", "hands", "hand_counts")),
    HandRevealed: (_hand_revealed, ("hands",)),
    Shot: (_nothing, ()),
    Eliminated: (_eliminated, ("board", "piles", "kills", "commanders")),
    BerserkerMoved: (_berserker_moved, ("board",)),
    ExtraTurnGranted: (_extra_turn_granted, ()),
    CardDrawn: (_card_drawn, ("hands", "hand_counts", "decks", "deck_counts")),
    Recalled: (_recalled, ("board", "hands", "hand_counts")),
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
    """``_end_of_turn`` for the copy-on-write paths: (active, turn, challenge, phase) of the next deploy phase."""
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
    return _replace(
        state,
        seq=state.seq + 1,
        phase="reinforce",
        board=board,
        hands=_pair(state.hands, p, _without(state.hands[p], event.card)),
        hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] - 1),
        placed_square=k,
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
    if card is not None:
        hands = _pair(hands, p, hands[p] + (card,))
        if not state.table:
            decks = _pair(decks, p, _without(decks[p], card))
    active, turn, challenge, phase = _next_turn(state)
    return _replace(
        state,
        seq=state.seq + 1,
        phase=phase,
        active=active,
        turn=turn,
        challenge=challenge,
        placed_square=None,
        involved=_NOBODY,
        extra_turn=False,
        hands=hands,
        hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] + 1),
        decks=decks,
        deck_counts=_pair(state.deck_counts, p, state.deck_counts[p] - 1),
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
    fast = _COPY_ON_WRITE.get(kind)
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


def state_to_builtins(state: State) -> dict[str, Any]:
    """The state as plain JSON data in the contract's shape (view=all); see docs/events.md for every field."""
    unbounded = state.unbounded
    board = [
        {"square": geo.name(k, unbounded), "card": card, "owner": PLAYERS[owner]}
        for k, (card, owner) in sorted(state.board.items(), key=lambda item: geo.board_order(item[0]))
    ]
    hands: dict[str, Any] = {}
    for p, player in enumerate(PLAYERS):
        hand: dict[str, Any] = {"count": state.hand_counts[p]}
        if state.table:
            hand["known"] = list(state.hands[p])
        else:
            hand["cards"] = list(state.hands[p])
        hands[player] = hand
    started = state.phase != "setup"
    return {
        "seq": state.seq,
        "turn": state.turn,
        "active": PLAYERS[state.active] if started else None,  # when over: who was to act last
        "phase": state.phase,
        "challenge": state.challenge if started else False,
        "board": board,
        "kills": {
            player: {"total": state.kills[p], "commanders": state.commanders[p]} for p, player in enumerate(PLAYERS)
        },
        "kill_piles": {player: list(state.piles[p]) for p, player in enumerate(PLAYERS)},
        "hands": hands,
        "deck": {player: state.deck_counts[p] for p, player in enumerate(PLAYERS)},
        "placed_this_turn": None if state.placed_square is None else geo.name(state.placed_square, unbounded),
        "involved": sorted(
            (geo.name(k, unbounded) for k in state.involved),
            key=lambda n: geo.board_order(geo.key_of(n, unbounded)),
        ),
        "extra_turn": state.extra_turn,
        "revealed": {player: list(r) for player, r in zip(PLAYERS, state.revealed, strict=True) if r is not None},
        "variant": msgspec.to_builtins(state.variant),
        "players": [{"id": a.id, "name": a.name, "army_name": a.army_name} for a in state.armies],
        "winner": state.winner,
        "end_reason": state.end_reason,
    }
