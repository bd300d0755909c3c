"""``fold`` at speed: a stream applied to one mutable working copy (slots objects, lists, the deck as an ordered
dict, the battlefield as a dict by square), frozen once at the end. Every event does here exactly what it does in
``engine.art_of_war.state.evolve``; ``game_started`` starts a new working copy from ``start_state``.
The conformance suite holds ``fold`` of every prefix equal to the evolve loop."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.art_of_war.catalogue import SQUARES, instances
from engine.art_of_war.state import (
    Link,
    PlayerState,
    Slot,
    State,
    Unit,
    _deck_order,
    evolve,
    initial_state,
    revealed,
    start_state,
)
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
    Deployed,
    Entered,
    GameEnded,
    GameStarted,
    KingsTaken,
    Moved,
    Passed,
    RedrawDecided,
    SupportDeclared,
    TurnEnded,
    TurnStarted,
)

replace = msgspec.structs.replace
STATE_FIELDS = State.__struct_fields__
PLAYER_FIELDS = PlayerState.__struct_fields__
LISTS = ("hand", "standby", "kingdom", "graveyard")


class Work:
    """``damaged``: some unit may carry damage (so a turn's end has something to clear)."""

    __slots__ = (*STATE_FIELDS, "by_id", "damaged")


class PlayerWork:
    """``tilted``: some unit may be sideways or have attacked (so a turn's start has something to stand up)."""

    __slots__ = (*PLAYER_FIELDS, "tilted")


def thaw(state: State) -> Any:
    w: Any = Work()
    for f in STATE_FIELDS:
        setattr(w, f, getattr(state, f))
    w.chain = list(state.chain)
    w.pending = list(state.pending)
    players = []
    for p in state.players:
        d: Any = PlayerWork()
        for f in PLAYER_FIELDS:
            setattr(d, f, getattr(p, f))
        for f in LISTS:
            setattr(d, f, list(getattr(p, f)))
        d.deck = dict.fromkeys(p.deck)
        d.field = {s.square: s.unit for s in p.field}
        d.tilted = any(not u.upright or u.attacked for u in d.field.values())
        players.append(d)
    w.players = players
    w.by_id = {d.id: d for d in players}
    w.damaged = any(u.damage or u.hits for d in players for u in d.field.values())
    return w


_EMPTY = State()
_EMPTY_PLAYER = PlayerState(id="", deck_name="", king="")


def started(event: GameStarted) -> Any:
    """The working copy ``start_state(event)`` would thaw to, made directly (a game without a position)."""
    w: Any = Work()
    for f in STATE_FIELDS:
        setattr(w, f, getattr(_EMPTY, f))
    players = []
    for deck in event.decks:
        d: Any = PlayerWork()
        for f in PLAYER_FIELDS:
            setattr(d, f, getattr(_EMPTY_PLAYER, f))
        d.id, d.deck_name, d.king = deck.player, deck.name, f"{deck.player}.{deck.king}.1"
        d.hand, d.standby, d.kingdom, d.graveyard = [], [], [], []
        d.deck = dict.fromkeys(instances(deck.player, deck.cards))
        d.field = {}
        d.tilted = False
        players.append(d)
    second = next(d.player for d in event.decks if d.player != event.first)
    w.phase, w.mode, w.seats, w.first, w.active = "redraw", event.variant.mode, event.seats, event.first, event.first
    w.seed, w.decks = event.seed, event.decks
    w.chain, w.pending = [], [event.first] * 3 + [second] * 3
    w.players = players
    w.by_id = {d.id: d for d in players}
    w.damaged = False
    return w


def _player(d: Any) -> PlayerState:
    fields = {f: getattr(d, f) for f in PLAYER_FIELDS}
    for f in LISTS:
        fields[f] = tuple(fields[f])
    fields["deck"] = tuple(d.deck)
    fields["field"] = tuple(Slot(square=sq, unit=d.field[sq]) for sq in SQUARES if sq in d.field)
    return PlayerState(**fields)


def freeze(w: Any) -> State:
    fields = {f: getattr(w, f) for f in STATE_FIELDS}
    fields["chain"] = tuple(w.chain)
    fields["pending"] = tuple(w.pending)
    fields["players"] = tuple(_player(d) for d in w.players)
    return State(**fields)


def _remove(items: list[str], item: str) -> None:
    try:
        items.remove(item)
    except ValueError:
        if items:
            del items[0]


def _take(deck: dict[str, None], item: str) -> None:
    if item in deck:
        del deck[item]
    elif deck:
        del deck[next(iter(deck))]


def _from_hand(p: Any, card: str) -> None:
    """``card`` leaves ``p``'s hand face up (``state.revealed``: R7's renaming when it names another copy)."""
    try:
        p.hand.remove(card)
    except ValueError:
        deck = list(p.deck)
        revealed(p.hand, deck, card)
        p.deck = dict.fromkeys(deck)


def _from_deck(p: Any, card: str) -> None:
    """``card`` leaves ``p``'s deck face up (``state.revealed``)."""
    if card in p.deck:
        del p.deck[card]
        return
    deck = list(p.deck)
    revealed(deck, p.hand, card)
    p.deck = dict.fromkeys(deck)


def _moved(field: dict[str, Unit], moves: Iterable[tuple[str, str]]) -> dict[str, Unit]:
    moves = tuple(moves)
    moved = {a: field[a] for a, _ in moves if a in field}
    for a, _ in moves:
        field.pop(a, None)
    for a, b in moves:
        if a in moved:
            field[b] = moved[a]
    return field


def _card_drawn(w: Any, e: CardDrawn) -> None:
    p = w.by_id[e.player]
    inst = e.card if e.card is not None else next(iter(p.deck), "")
    p.hand.append(inst)
    _take(p.deck, inst)
    if w.pending:
        del w.pending[0]


def _turn_started(w: Any, e: TurnStarted) -> None:
    p = w.by_id[e.player]
    if p.tilted:
        field = p.field
        for sq, u in field.items():
            if not u.upright or u.attacked:
                field[sq] = replace(u, upright=True, attacked=False)
        p.tilted = False
    p.entered = False
    w.pending = [e.player] if p.deck else []
    w.phase = "turn"
    w.active = e.player
    w.turn = e.turn
    w.action = None
    w.supports = 0
    w.started = True


def _turn_ended(w: Any, e: TurnEnded) -> None:
    if w.damaged:
        for p in w.players:
            field = p.field
            for sq, u in field.items():
                if u.damage or u.hits:
                    field[sq] = replace(u, damage=0, hits=0)
        w.damaged = False
    w.active = e.next
    w.supports = 0
    w.action = None
    w.started = False


def _entered(w: Any, e: Entered) -> None:
    p = w.by_id[e.player]
    _from_hand(p, e.card)
    p.kingdom.append(e.card)
    p.entered = True


def _arranged(w: Any, e: Arranged) -> None:
    p = w.by_id[e.player]
    if e.how == "place":
        head = p.standby.pop(0)
        p.field[e.square] = Unit(card=head)
    elif e.how == "rotate":
        unit = p.field[e.square]
        head = p.standby.pop(0)
        p.standby.append(unit.card)
        p.field[e.square] = Unit(card=head)
    elif e.how == "shift":
        to = e.to or ""
        moves = [(e.square, to)] + ([(to, e.square)] if to in p.field else [])
        p.field = _moved(p.field, moves)
    else:
        unit = p.field.get(e.square)
        _from_hand(p, e.card or "")
        if unit is not None:
            p.hand.append(unit.card)
        p.field[e.square] = Unit(card=e.card or "")
    w.action = "arranged"


def _redraw_decided(w: Any, e: RedrawDecided) -> None:
    p = w.by_id[e.player]
    if e.again and e.hand is not None:
        deck = list(p.deck) + p.hand
        for inst in e.hand:
            _remove(deck, inst)
        p.hand = list(e.hand)
        p.deck = dict.fromkeys(sorted(deck, key=_deck_order(p, w)))
        p.redraw = "redrawn"
        w.reshuffled = w.reshuffled + (e.player,)
    else:
        p.redraw = "kept"


def _kings_taken(w: Any, e: KingsTaken) -> None:
    for p in w.players:
        p.hand.append(p.king)
    w.phase = "deploy"


def _deployed(w: Any, e: Deployed) -> None:
    p = w.by_id[e.player]
    _from_hand(p, e.card)
    _from_hand(p, e.standby)
    _from_deck(p, e.kingdom)
    p.standby.append(e.standby)
    p.kingdom.append(e.kingdom)
    p.deployed = True
    p.field[e.square] = Unit(card=e.card)


def _conscription_started(w: Any, e: ConscriptionStarted) -> None:
    w.conscript = e.player


def _conscripted(w: Any, e: Conscripted) -> None:
    p = w.by_id[e.player]
    _remove(p.standby if e.source == "standby" else p.kingdom, e.card)
    p.field[e.square] = Unit(card=e.card)
    if len(p.field) >= 2:
        w.conscript = None


def _passed(w: Any, e: Passed) -> None:
    pass


def _chain_resolved(w: Any, e: ChainResolved) -> None:
    base = w.chain[0] if w.chain else None
    w.chain = []
    if base is not None and e.effective and e.effective[0] and base.kind == "support" and base.effect == "soldier":
        w.supports += 1


def _support_declared(w: Any, e: SupportDeclared) -> None:
    p = w.by_id[e.player]
    _from_hand(p, e.card)
    p.standby.append(e.card)
    w.chain.append(Link(kind="support", player=e.player, card=e.card, effect=e.effect, target=e.target,
                        square=e.square, to=e.to))


def _moved_event(w: Any, e: Moved) -> None:
    p = w.by_id[e.player]
    p.field = _moved(p.field, e.moves)


def _battle_declared(w: Any, e: BattleDeclared) -> None:
    w.action = "battle"


def _attack_declared(w: Any, e: AttackDeclared) -> None:
    p = w.by_id[e.player]
    unit = p.field.get(e.square)
    if unit is not None:
        p.field[e.square] = replace(unit, upright=False, attacked=True)
        p.tilted = True
    w.chain.append(Link(kind="attack", player=e.player, card=e.unit, target=e.target, square=e.square,
                        value=e.value))


def _damaged(w: Any, e: Damaged) -> None:
    p = w.by_id[e.owner]
    unit = p.field.get(e.square)
    if unit is None:
        return
    if e.result == "damaged":
        p.field[e.square] = replace(unit, damage=e.total, hits=unit.hits + 1)
        w.damaged = True
        return
    del p.field[e.square]
    if e.to == "graveyard" or e.to is None and e.result == "destroyed":  # state.taken_to
        p.graveyard.append(unit.card)
    else:
        w.by_id[e.by].kingdom.append(unit.card)


def _conceded(w: Any, e: Conceded) -> None:
    pass


def _game_ended(w: Any, e: GameEnded) -> None:
    w.phase = "over"
    w.winner = e.winner
    w.end_reason = e.reason
    w.adjudication = e.adjudication
    w.chain = []
    w.pending = []
    w.conscript = None


HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    CardDrawn: _card_drawn, TurnStarted: _turn_started, TurnEnded: _turn_ended, Entered: _entered,
    Arranged: _arranged, Passed: _passed, ChainResolved: _chain_resolved, SupportDeclared: _support_declared,
    Moved: _moved_event, BattleDeclared: _battle_declared, AttackDeclared: _attack_declared, Damaged: _damaged,
    Conceded: _conceded, GameEnded: _game_ended, RedrawDecided: _redraw_decided, KingsTaken: _kings_taken,
    Deployed: _deployed, ConscriptionStarted: _conscription_started, Conscripted: _conscripted,
}  # game_started starts a new working copy


def fold(events: Iterable[ArtOfWarEvent], state: State | None = None) -> State:
    get = HANDLERS.get
    applied = 0
    w: Any = None if state is None else thaw(state)  # a whole game: its working copy made from game_started
    for event in events:
        handler = get(type(event))
        if handler is None or w is None:
            if w is not None:
                w.seq += applied
            applied = 0
            seq = 0 if w is None else w.seq
            if type(event) is GameStarted:
                if event.position is None:
                    w = started(event)
                    w.seq = seq + 1
                else:
                    w = thaw(replace(start_state(event), seq=seq + 1))
            else:
                w = thaw(evolve(initial_state() if w is None else freeze(w), event))
        else:
            applied += 1
            handler(w, event)
    if w is None:
        return initial_state()
    w.seq += applied
    return freeze(w)


__all__ = ["HANDLERS", "fold", "freeze", "thaw"]
