"""The game state, ``initial_state``, ``evolve``, ``fold`` and ``state_to_builtins``.

``evolve`` trusts its events and never re-runs a rule (HOUSE_STYLE: decide/evolve). The state is a frozen
msgspec Struct; its containers are tuples, frozensets and one board dict that ``evolve`` copies before changing
(copy-on-write: an old state is never mutated). Players are indices internally (0 = p1, 1 = p2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from engine.lords_of_war import geometry as geo
from engine.lords_of_war.cards import CARDS
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


class State(msgspec.Struct, frozen=True, kw_only=True):
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


def _end_of_turn(state: State, **changes: Any) -> State:
    """Reinforce is done: the next deploy phase (the challenge's second placement, the extra turn or the opponent)."""
    if state.challenge:
        if state.active == 0:
            active, turn, challenge = 1, 0, True
        else:
            active, turn, challenge = 0, 1, False
    else:
        active = state.active if state.extra_turn else 1 - state.active
        turn, challenge = state.turn + 1, False
    return msgspec.structs.replace(
        state,
        seq=state.seq + 1,
        phase="deploy" if state.phase != "over" else "over",
        active=active,
        turn=turn,
        challenge=challenge,
        placed_square=None,
        involved=frozenset(),
        extra_turn=False,
        **changes,
    )


def evolve(state: State, event: LordsOfWarEvent) -> State:
    """Apply one recorded fact. Trusts its input: no rule is checked here."""
    replace = msgspec.structs.replace
    match event:
        case Placed(player=player, card=card, square=square):
            p = PLAYER_INDEX[player]
            k = geo.key_of(square, state.unbounded)
            board = dict(state.board)
            board[k] = (card, p)
            return replace(
                state,
                seq=state.seq + 1,
                phase="reinforce",
                board=board,
                hands=_pair(state.hands, p, _without(state.hands[p], card)),
                hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] - 1),
                placed_square=k,
            )
        case Shot():
            return replace(state, seq=state.seq + 1)
        case Eliminated(units=units):
            board = dict(state.board)
            piles = list(state.piles)
            kills = list(state.kills)
            commanders = list(state.commanders)
            involved = set(state.involved)
            removed = set()
            placed = state.placed_square
            for unit in units:
                k = geo.key_of(unit.square, state.unbounded)
                removed.add(k)
                del board[k]
                destroyer = 1 - PLAYER_INDEX[unit.owner]
                piles[destroyer] = piles[destroyer] + (unit.card,)
                kills[destroyer] += 1
                if CARDS[unit.card].is_commander:
                    commanders[destroyer] += 1
                for attacker in unit.attackers:
                    involved.add(geo.key_of(attacker.square, state.unbounded))
            if placed in removed:
                placed = None
            return replace(
                state,
                seq=state.seq + 1,
                board=board,
                piles=(piles[0], piles[1]),
                kills=(kills[0], kills[1]),
                commanders=(commanders[0], commanders[1]),
                involved=frozenset(involved - removed),
                placed_square=placed,
            )
        case BerserkerMoved(origin=origin, target=target):
            a = geo.key_of(origin, state.unbounded)
            b = geo.key_of(target, state.unbounded)
            board = dict(state.board)
            board[b] = board.pop(a)
            involved = state.involved
            if a in involved:
                involved = (involved - {a}) | {b}
            return replace(
                state,
                seq=state.seq + 1,
                board=board,
                involved=involved,
                placed_square=b if state.placed_square == a else state.placed_square,
            )
        case ExtraTurnGranted():
            return replace(state, seq=state.seq + 1, extra_turn=True)
        case CardDrawn(player=player, card=card):
            p = PLAYER_INDEX[player]
            hands = state.hands
            if card is not None:
                hands = _pair(hands, p, hands[p] + (card,))
            decks = state.decks
            if not state.table and card is not None:
                decks = _pair(decks, p, _without(decks[p], card))
            return _end_of_turn(
                state,
                hands=hands,
                hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] + 1),
                decks=decks,
                deck_counts=_pair(state.deck_counts, p, state.deck_counts[p] - 1),
            )
        case Recalled(player=player, square=square, card=card):
            p = PLAYER_INDEX[player]
            board = dict(state.board)
            del board[geo.key_of(square, state.unbounded)]
            return _end_of_turn(
                state,
                board=board,
                hands=_pair(state.hands, p, state.hands[p] + (card,)),
                hand_counts=_pair(state.hand_counts, p, state.hand_counts[p] + 1),
            )
        case ReinforceSkipped():
            return _end_of_turn(state)
        case HandRevealed(player=player, cards=cards):
            p = PLAYER_INDEX[player]
            changes: dict[str, Any] = {"revealed": _pair(state.revealed, p, tuple(cards))}
            if state.table:  # the whole hand is known from now on
                changes["hands"] = _pair(state.hands, p, tuple(cards))
            return replace(state, seq=state.seq + 1, **changes)
        case GameEnded(winner=winner, reason=reason):
            return replace(state, seq=state.seq + 1, phase="over", winner=winner, end_reason=reason)
        case Conceded():
            return replace(state, seq=state.seq + 1)
        case HandDealt(player=player, cards=cards, count=count):
            p = PLAYER_INDEX[player]
            deck = state.decks[p]
            for card in cards or ():
                deck = _without(deck, card)
            return replace(
                state,
                seq=state.seq + 1,
                hands=_pair(state.hands, p, tuple(cards or ())),
                hand_counts=_pair(state.hand_counts, p, count),
                decks=_pair(state.decks, p, deck),
                deck_counts=_pair(state.deck_counts, p, state.deck_counts[p] - count),
            )
        case GameStarted():
            return _started(state, event)
        case _:
            raise TypeError(f"not a Lords of War event: {event!r}")


def _started(state: State, event: GameStarted) -> State:
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
    deck_counts = (len(pools[0]), len(pools[1]))
    decks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if variant.mode == "sealed":
        rest = [[c for c in pool if CARDS[c].rank != "general"] for pool in pools]  # §3: the general is dealt
        shuffled = shuffled_decks(event.seed or 0, rest, event.shuffle or SHUFFLE_NAME)
        decks = (tuple(shuffled[0]), tuple(shuffled[1]))
    return msgspec.structs.replace(
        state,
        seq=state.seq + 1,
        phase="deploy",
        variant=variant,
        unbounded=unbounded,
        table=variant.mode == "table",
        armies=tuple(event.players),
        seed=event.seed,
        turn=turn,
        active=active,
        challenge=challenge,
        board=board,
        decks=decks,
        deck_counts=deck_counts,
        kills=(kills[0], kills[1]),
        commanders=(commanders[0], commanders[1]),
    )


def fold(events: Iterable[LordsOfWarEvent], state: State | None = None) -> State:
    state = initial_state() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state


def is_started(state: State) -> bool:
    return state.phase != "setup"


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
        "revealed": {player: list(r) for player, r in zip(PLAYERS, state.revealed) if r is not None},
        "variant": msgspec.to_builtins(state.variant),
        "players": [{"id": a.id, "name": a.name, "army_name": a.army_name} for a in state.armies],
        "winner": state.winner,
        "end_reason": state.end_reason,
    }
