"""``fold`` at speed: a stream of events applied to one mutable working copy of the state, frozen once at the end.

``evolve`` builds a new frozen ``State`` per event (what a one-step reader needs); refolding a stored game does not
need the states between, so this applies each event in place to lists and dicts and freezes once. Every event does
here exactly what it does in ``engine.l5r.state.evolve``; the rare ones whose consequences are many (``game_started``,
``effect``) go through ``evolve`` itself. The conformance suite holds ``fold`` of every prefix equal to the
evolve loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.l5r.catalogue import card_of
from engine.l5r.state import (
    QUIET_EVENTS,
    WINDOWS_OF_TWO,
    Army,
    Duel,
    Focus,
    InPlay,
    Pending,
    PlayerState,
    State,
    evolve,
    initial_state,
    next_focus,
    start_state,
)
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
    DuelChallenged,
    DuelFocused,
    DuelResolved,
    DuelStruck,
    DynastyDiscarded,
    GameEnded,
    GameStarted,
    GoldProduced,
    HonorChanged,
    L5REvent,
    NothingDrawn,
    Passed,
    PhaseStarted,
    PlayerEliminated,
    ProvinceFilled,
    RingPlayed,
    StrategyPlayed,
    TurnEnded,
    TurnStarted,
)

STATE_FIELDS = State.__struct_fields__
PLAYER_FIELDS = PlayerState.__struct_fields__
PLAYER_LISTS = ("provinces", "hand", "dynasty_discard", "fate_discard", "discard_dishonored", "removed", "cards",
                "played")
PLAYER_DECKS = ("dynasty", "fate")  # dicts in the working copy (ordered, a card taken from anywhere in O(1))
TUPLES = frozenset(PLAYER_LISTS + PLAYER_DECKS)
STATE_LISTS = ("pending", "armies", "modifiers")
replace = msgspec.structs.replace


class Work:
    """A ``State``'s fields, mutable (lists, the decks as ordered dicts); ``by_id`` and ``other`` by seat."""

    __slots__ = (*STATE_FIELDS, "by_id", "other")


class PlayerWork:
    """A ``PlayerState``'s fields, mutable; ``at``: where each card in play is in ``cards``."""

    __slots__ = (*PLAYER_FIELDS, "at")


def thaw(state: State) -> Any:
    w: Any = Work()
    for f in STATE_FIELDS:
        setattr(w, f, getattr(state, f))
    for f in STATE_LISTS:
        setattr(w, f, list(getattr(state, f)))
    players = []
    for p in state.players:
        d: Any = PlayerWork()
        for f in PLAYER_FIELDS:
            setattr(d, f, getattr(p, f))
        for f in PLAYER_LISTS:
            setattr(d, f, list(getattr(p, f)))
        for f in PLAYER_DECKS:
            setattr(d, f, dict.fromkeys(getattr(p, f)))
        d.at = {c.id: i for i, c in enumerate(d.cards)}
        players.append(d)
    w.players = players
    w.by_id = {d.id: d for d in players}
    w.other = {d.id: next((q.id for q in players if q is not d), d.id) for d in players}
    return w


def freeze(w: Any) -> State:
    players = tuple(PlayerState(**_player_fields(d)) for d in w.players)
    fields = {f: getattr(w, f) for f in STATE_FIELDS}
    for f in STATE_LISTS:
        fields[f] = tuple(fields[f])
    fields["players"] = players
    return State(**fields)


def _assign(obj: Any, **changes: Any) -> None:
    for name, value in changes.items():
        setattr(obj, name, value)


def _player_fields(d: Any) -> dict[str, Any]:
    return {f: tuple(getattr(d, f)) if f in TUPLES else getattr(d, f) for f in PLAYER_FIELDS}


def _remove(items: list[str], item: str) -> None:
    """``engine.l5r.state._without`` in place: the item, or (a copy whose hidden cards were replaced) the first."""
    try:
        items.remove(item)
    except ValueError:
        if items:
            del items[0]


def _take(deck: dict[str, None], item: str) -> None:
    """``_remove`` for a deck (a dict of the cards left, in order)."""
    if item in deck:
        del deck[item]
    elif deck:
        del deck[next(iter(deck))]


def _set_province(p: Any, number: int, **changes: Any) -> None:
    provinces = p.provinces
    for i, pr in enumerate(provinces):
        if pr.number == number:
            provinces[i] = replace(pr, **changes)


def _refill(w: Any, seat: str, number: int) -> None:
    """``engine.l5r.state._refill`` in place (``dynasty_left``: the unseen pool less the cards laid unseen)."""
    p = w.by_id[seat]
    laid = sum(1 for pr in p.provinces if pr.unseen)
    awaited = sum(1 for x in w.pending if x.player == seat and x.dest in ("province", "discard"))
    if len(p.dynasty) - laid > awaited:
        w.pending.append(Pending(player=seat, dest="province", province=number))


def _acted(w: Any) -> None:
    if w.priority is not None:
        w.acted = True


def _took_action(w: Any, seat: str, card: str) -> None:
    """``engine.l5r.state._took_action`` in place (R6: one action, then the other seat's turn)."""
    if w.priority is None:
        return
    if not w.one_action_at_a_time:
        w.acted = True  # l5r/1 (D3)
    elif w.duel is None and seat == w.priority:
        w.acted = True
        w.passes = 0
        w.priority = w.other[seat]
        w.action_card = card


def _pop_pending(w: Any) -> None:
    if w.pending:
        del w.pending[0]


def _expire(w: Any, until: str) -> None:
    if w.modifiers:
        w.modifiers = [m for m in w.modifiers if m.until != until]


def _destroy(w: Any, destroyed: Iterable[str]) -> None:
    gone = set(destroyed)
    if not gone:
        return
    for p in w.players:
        attached = {c.id for c in p.cards if c.on in gone}
        lost = [c for c in p.cards if c.id in gone or c.id in attached]
        if not lost:
            continue
        p.cards = [c for c in p.cards if c.id not in gone and c.id not in attached]
        p.at = {c.id: i for i, c in enumerate(p.cards)}
        p.dynasty_discard += [c.id for c in lost if card_of(c.id).dynasty]
        p.fate_discard += [c.id for c in lost if card_of(c.id).fate]
        p.discard_dishonored += [c.id for c in lost if c.dishonored]  # §4: dishonoured in the pile too
    w.armies = [replace(a, units=tuple(u for u in a.units if u not in gone)) for a in w.armies]
    w.modifiers = [m for m in w.modifiers if m.target not in gone]


def _passed(w: Any, seat: str, window: str) -> None:
    if window in WINDOWS_OF_TWO:
        passes = w.passes + 1 if w.one_action_at_a_time or not w.acted else 0  # R6; l5r/1: D3
        w.acted = False
        w.action_card = None
        if passes >= 2:
            w.passes = 0
            if w.phase == "battle" and w.segment == "engage":
                w.segment = "combat"
                w.priority = w.defender
            elif w.phase == "battle":
                w.segment = "resolve"
                w.priority = None
            else:
                w.closed = True
                w.priority = None
        else:
            w.priority = w.other[seat]
            w.passes = passes
    elif window == "maneuvers":
        if w.defender is not None and seat != w.defender:
            w.priority = w.defender
        else:
            _assign(w, phase="battle", battle=0, segment="engage", priority=w.defender, passes=0, acted=False,
                     closed=False)
    elif window in ("attack", "dynasty"):
        w.closed = True
    else:
        raise ValueError(f"no window {window!r}")


def _card_drawn(w: Any, e: CardDrawn) -> None:
    p = w.by_id[e.player]
    inst = e.card if e.card is not None else next(iter(p.fate))
    p.hand.append(inst)
    _take(p.fate, inst)
    _pop_pending(w)


def _province_filled(w: Any, e: ProvinceFilled) -> None:
    p = w.by_id[e.player]
    if e.source == "unseen":  # table mode: laid face down unseen, entered when it turns face up
        _set_province(p, e.province, card=None, face_up=False, unseen=True)
        _pop_pending(w)
        return
    inst = e.card if e.card is not None else next(iter(p.dynasty))
    _set_province(p, e.province, card=inst, face_up=False)
    _take(p.dynasty, inst)
    _pop_pending(w)


def _passed_event(w: Any, e: Passed) -> None:
    if e.window in WINDOWS_OF_TWO:  # the most common event of all: inline
        passes = w.passes + 1 if w.one_action_at_a_time or not w.acted else 0  # R6; l5r/1: D3
        w.acted = False
        w.action_card = None
        if passes < 2:
            w.priority = w.other[e.player]
            w.passes = passes
            return
    _passed(w, e.player, e.window)


def _phase_started(w: Any, e: PhaseStarted) -> None:
    for p in w.players:
        if p.gold:
            p.gold = 0
    w.closed = False
    w.priority = None
    if e.phase == "attack":
        w.phase = "attack"
    elif e.phase == "dynasty":
        if w.modifiers:
            _expire(w, "battle")
        w.phase = "dynasty"
        w.armies = []
        w.battlefields = ()
        w.defender = None
        w.segment = ""
    else:
        w.phase = "end"
        if w.by_id[e.player].fate:
            w.pending.append(Pending(player=e.player, dest="hand"))


def _gold_produced(w: Any, e: GoldProduced) -> None:
    p = w.by_id[e.player]
    if e.card == p.stronghold:
        p.stronghold_bowed = True
    else:
        i = p.at[e.card]
        p.cards[i] = replace(p.cards[i], bowed=True)
    p.gold += e.gold
    _acted(w)


def _turn_started(w: Any, e: TurnStarted) -> None:
    for p in w.players:
        p.gold = 0
    p = w.by_id[e.player]
    p.stronghold_bowed = p.proclaimed = p.dynasty_discarded = False
    p.played = []
    cards, at = p.cards, p.at
    for card in e.straightened:  # the stronghold and every bowed card in play (as decide listed them)
        i = at.get(card)
        if i is not None:
            cards[i] = replace(cards[i], bowed=False)
    w.phase = "action"
    w.active = w.priority = e.player
    w.turn = e.turn
    w.passes = 0
    w.acted = w.closed = False
    for pr in p.provinces:  # table mode: each unseen face-down card is entered as it turns face up
        if pr.unseen:
            w.pending.append(Pending(player=e.player, dest="reveal", province=pr.number))


def _turn_ended(w: Any, e: TurnEnded) -> None:
    if w.modifiers:
        _expire(w, "turn")
    w.by_id[e.player].gold = 0
    w.phase = "start"
    w.active = e.next
    w.priority = None


def _cards_revealed(w: Any, e: CardsRevealed) -> None:
    p = w.by_id[e.player]
    for r in e.cards:
        if e.table:  # an unseen card entered: it leaves the unseen pool
            _take(p.dynasty, r.card)
        _set_province(p, r.province, card=r.card, face_up=True, unseen=False)
    emptied = []
    for inst in e.discarded:  # events (D2); a destroyed province's card (table)
        holding = next((pr.number for pr in p.provinces if pr.card == inst), None)
        if holding is not None:
            _set_province(p, holding, card=None, face_up=False)
            emptied.append(holding)
        p.dynasty_discard.append(inst)
    if e.table:
        _pop_pending(w)
    for holding in emptied:
        _refill(w, e.player, holding)


def _card_recruited(w: Any, e: CardRecruited) -> None:
    p = w.by_id[e.player]
    _set_province(p, e.province, card=None, face_up=False)
    p.gold -= e.gold
    p.at[e.card] = len(p.cards)
    p.cards.append(InPlay(id=e.card, bowed=card_of(e.card).kind == "holding"))
    p.proclaimed = p.proclaimed or e.proclaimed
    _acted(w)
    _refill(w, e.player, e.province)


def _card_attached(w: Any, e: CardAttached) -> None:
    p = w.by_id[e.player]
    _remove(p.hand, e.card)
    p.gold -= e.gold
    p.at[e.card] = len(p.cards)
    p.cards.append(InPlay(id=e.card, on=e.to))
    _took_action(w, e.player, e.card)


def _ring_played(w: Any, e: RingPlayed) -> None:
    p = w.by_id[e.player]
    _remove(p.hand, e.card)
    p.at[e.card] = len(p.cards)
    p.cards.append(InPlay(id=e.card))
    _took_action(w, e.player, e.card)


def _strategy_played(w: Any, e: StrategyPlayed) -> None:
    p = w.by_id[e.player]
    _remove(p.hand, e.card)
    p.gold -= e.gold
    p.fate_discard.append(e.card)
    p.played.append(e.card)
    _took_action(w, e.player, e.card)


def _honor_changed(w: Any, e: HonorChanged) -> None:
    w.by_id[e.player].honor = e.total


def _attack_declared(w: Any, e: AttackDeclared) -> None:
    _assign(w, phase="maneuvers", defender=e.defender, battlefields=e.battlefields, priority=e.player, passes=0,
             armies=[], closed=False)


def _army_assigned(w: Any, e: ArmyAssigned) -> None:
    w.armies.append(Army(player=e.player, side=e.side, battlefield=e.battlefield, units=e.units))


def _attack_ended(w: Any, e: AttackEnded) -> None:
    _assign(w, armies=[], closed=True, segment="", priority=None)


def _duel_challenged(w: Any, e: DuelChallenged) -> None:
    resume = w.other[e.player] if w.one_action_at_a_time else w.priority  # R6: the challenge was the seat's action
    duel = Duel(seat=e.player, challenger=e.challenger, challenged=e.challenged, stat=e.stat, card=e.card,
                destroy_loser=e.destroy_loser, resume=resume)
    w.duel = replace(duel, next=next_focus(duel))


def _duel_focused(w: Any, e: DuelFocused) -> None:
    p = w.by_id[e.player]
    card = e.card
    if e.source == "hand":
        assert card is not None
        _remove(p.hand, card)
    elif not e.unseen:  # unseen (table mode): among the unseen fate cards until the reveal
        card = card if card is not None else next(iter(p.fate))
        _take(p.fate, card)
    duel = replace(w.duel, focuses=w.duel.focuses + (Focus(player=e.player, source=e.source, card=card),))
    w.duel = replace(duel, next=next_focus(duel, e.player))


def _duel_struck(w: Any, e: DuelStruck) -> None:
    w.duel = replace(w.duel, next=None)
    for f in w.duel.focuses:  # table mode: each focus card laid unseen is entered at the reveal
        if f.card is None:
            w.pending.append(Pending(player=f.player, dest="focus"))


def _duel_resolved(w: Any, e: DuelResolved) -> None:
    duel = w.duel
    resume = duel.resume
    for shown in e.revealed:
        w.by_id[shown.player].fate_discard.append(shown.card)
    if e.returned_home:  # R7: the survivors leave their armies
        home = set(e.returned_home)
        w.armies = [replace(a, units=tuple(u for u in a.units if u not in home)) for a in w.armies]
    _destroy(w, e.destroyed)
    w.modifiers = [m for m in w.modifiers if m.stat != "duel"]
    _assign(w, duel=None, priority=resume, passes=0, acted=True,
            action_card=(duel.card or duel.challenger) if w.one_action_at_a_time else None)


def _dynasty_discarded(w: Any, e: DynastyDiscarded) -> None:
    p = w.by_id[e.player]
    _set_province(p, e.province, card=None, face_up=False)
    p.dynasty_discard.append(e.card)
    p.dynasty_discarded = True
    _refill(w, e.player, e.province)


def _card_discarded(w: Any, e: CardDiscarded) -> None:
    p = w.by_id[e.player]
    _remove(p.hand, e.card)
    p.fate_discard.append(e.card)


def _player_eliminated(w: Any, e: PlayerEliminated) -> None:
    w.by_id[e.player].eliminated = True


def _conceded(w: Any, e: Conceded) -> None:
    pass


def _nothing_drawn(w: Any, e: NothingDrawn) -> None:
    pass


def _game_ended(w: Any, e: GameEnded) -> None:
    _assign(w, phase="over", winner=e.winner, end_reason=e.reason, priority=None, pending=[], duel=None,
            adjudication=e.adjudication)


def _battle_resolved(w: Any, e: BattleResolved) -> None:
    if not e.destroyed and not e.returned_bowed and not e.province_destroyed and not e.restored and not w.armies:
        _next_battle(w)  # a battlefield where no army stood (the most common battle of all)
        return
    by_id = w.by_id
    if e.restored:
        restored = set(e.restored)
        for seat in (e.attacker, e.defender):
            p = by_id[seat]
            p.cards = [replace(c, dishonored=False) if c.id in restored else c for c in p.cards]
    _destroy(w, e.destroyed)
    if e.province_destroyed:
        d = by_id[e.defender]
        if any(pr.unseen for pr in d.provinces if pr.number == e.battlefield):  # entered as it is discarded
            w.pending.append(Pending(player=d.id, dest="discard", province=e.battlefield))
        d.provinces = [pr for pr in d.provinces if pr.number != e.battlefield]
        d.dynasty_discard += list(e.discarded)
    if e.returned_bowed:
        bowed = set(e.returned_bowed)
        a = by_id[e.attacker]
        a.cards = [replace(c, bowed=True) if c.id in bowed else c for c in a.cards]
    field = e.battlefield
    for x in w.armies:
        if x.battlefield == field:
            w.armies = [a for a in w.armies if not (a.side == "attacker" and a.battlefield == field)]
            break
    _next_battle(w)


def _next_battle(w: Any) -> None:
    if w.modifiers:
        _expire(w, "battle")
    if w.battle + 1 < len(w.battlefields):
        w.battle += 1
        w.segment = "engage"
        w.priority = w.defender
        w.passes = 0
        w.acted = False
    else:
        w.segment = "over"
        w.priority = None


HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    CardDrawn: _card_drawn, ProvinceFilled: _province_filled, Passed: _passed_event, PhaseStarted: _phase_started,
    GoldProduced: _gold_produced, TurnStarted: _turn_started, TurnEnded: _turn_ended, CardsRevealed: _cards_revealed,
    CardRecruited: _card_recruited, CardAttached: _card_attached, RingPlayed: _ring_played,
    StrategyPlayed: _strategy_played, HonorChanged: _honor_changed, AttackDeclared: _attack_declared,
    ArmyAssigned: _army_assigned, BattleResolved: _battle_resolved, AttackEnded: _attack_ended,
    DuelChallenged: _duel_challenged, DuelFocused: _duel_focused, DuelStruck: _duel_struck,
    DuelResolved: _duel_resolved, DynastyDiscarded: _dynasty_discarded, CardDiscarded: _card_discarded,
    PlayerEliminated: _player_eliminated, Conceded: _conceded, GameEnded: _game_ended, NothingDrawn: _nothing_drawn,
}  # game_started and effect (rare, of many consequences) go through evolve
QUIET = frozenset(QUIET_EVENTS)


def fold(events: Iterable[L5REvent], state: State | None = None) -> State:
    w = thaw(state if state is not None else initial_state())
    get = HANDLERS.get
    applied = 0  # events applied in place since seq was last brought up to date
    for event in events:
        handler = get(type(event))
        if handler is None:  # game_started, effect: through evolve itself
            w.seq += applied
            applied = 0
            if type(event) is GameStarted:  # the state before it does not matter: no freeze of it
                w = thaw(msgspec.structs.replace(start_state(event), seq=w.seq + 1))
            else:
                w = thaw(evolve(freeze(w), event))
        else:
            applied += 1
            handler(w, event)
            if type(event) not in QUIET:  # R9: something happened (state.is_quiet)
                w.quiet_since = w.turn
    w.seq += applied
    return freeze(w)


__all__ = ["HANDLERS", "fold", "freeze", "thaw"]
