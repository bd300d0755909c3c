"""``decide`` and ``legal_actions`` for Art of War (shared rules/art-of-war.md; docs/art-of-war.md).

Each action's first event is the player's fact; ``advance`` adds what the procedures do by themselves: sealed
draws, the kings taken, the start of a turn, forced forward moves, conscription's start, the victories. A chain
(an attack or support and its answers, R3) resolves when the awaited player passes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations_with_replacement

from engine.art_of_war.actions import (
    ArtOfWarAction,
    Attack,
    Battle,
    Concede,
    Conscript,
    Deploy,
    Draw,
    End,
    Entry,
    Pass,
    Place,
    Play,
    Redraw,
    Rotate,
    Shift,
    Support,
)
from engine.art_of_war.catalogue import BASIC_TYPES, SQUARES, STANDBY_LIMIT, CardBook, cards_of, kind_of, reaches
from engine.art_of_war.state import PlayerState, State, awaited, evolve, numbers_reveals, reveal_id, top
from engine.errors import RuleError
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
    KingsTaken,
    Moved,
    Passed,
    Placed,
    RedrawDecided,
    SupportDeclared,
    TurnEnded,
    TurnStarted,
)

OWN_TURN = ("soldier", "archer", "priest")  # rear supports of one's own turn (§1)
EFFECTS = ("soldier", "archer", "priest", "guardian", "wizard")


class Builder:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[ArtOfWarEvent] = []

    def emit(self, event: ArtOfWarEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def refuse(code: str, rule: str, message: str) -> RuleError:
    return RuleError(code, rule, message)


def name(book: CardBook, instance: str) -> str:
    card_of = book.card
    try:
        return card_of(instance).name
    except (KeyError, IndexError):
        return repr(instance)


def from_hand(s: State, p: PlayerState, named: Sequence[str], rule: str) -> tuple[str, ...]:
    """The ids the hand cards ``named`` leave ``p``'s hand face up as, in order. A card is named by its id in hand
    or by its type (``wizard``: one of that type). R7: where reveals are numbered (``numbers_reveals``) the id is
    ``reveal_id``'s, whichever copy of the type was named, so it tells nothing of the copies still hidden."""
    book = cards_of(s)
    left = list(p.hand)
    out: list[str] = []
    for card in named:
        chosen = card if card in left else None
        if chosen is None and "." not in card:
            chosen = next((c for c in left if kind_of(c) == card), None)
        if chosen is None:
            if card in p.hand or "." not in card and any(kind_of(c) == card for c in p.hand):
                raise refuse("not_in_hand", rule, f"{p.id}'s hand holds no other {name(book, card)} ({card})")
            raise refuse("not_in_hand", rule, f"{name(book, card)} ({card}) is not in {p.id}'s hand")
        left.remove(chosen)
        out.append(reveal_id(s, p.id, kind_of(chosen), out) if numbers_reveals(s) else chosen)
    return tuple(out)


def attack_value(s: State, seat: str, unit: str) -> int:
    """§5: fixed when declared: SOLDIER = cards in hand then; + this turn's SOLDIER supports."""
    card_of = cards_of(s).card
    card = card_of(unit)
    base = len(s.player(seat).hand) if card.attack is None else card.attack
    return base + (s.supports if s.active == seat else 0)


def defence(book: CardBook, unit_card: str, upright: bool) -> int:
    card_of = book.card
    up, side = card_of(unit_card).defence
    return up if upright else side


# -- decide ---------------------------------------------------------------------------------------------------------


def decide(state: State, action: ArtOfWarAction) -> tuple[ArtOfWarEvent, ...]:
    if state.phase == "setup":
        raise refuse("not_started", "§3", "the game has not started")
    if state.phase == "over":
        raise refuse("game_over", "§7", "the game is over")
    seat = action.player
    if seat not in (p.id for p in state.players):
        raise refuse("unknown_player", "§3", f"no player {seat!r} in this game")
    b = Builder(state)
    if isinstance(action, Concede):
        b.emit(Conceded(player=seat))
        _end(b, state.other(seat), "concession")
        return tuple(b.events)
    expected = awaited(state)
    if seat not in expected:
        raise refuse("not_your_turn", _moment_rule(state), f"the game awaits {expected[0]}: {_moment(state)}")
    handler = _handler(state, action)
    handler(b, action)
    advance(b)
    return tuple(b.events)


def _moment(state: State) -> str:
    if state.pending:
        return "a card drawn at the table"
    if state.conscript is not None:
        return "conscription (§6)"
    if state.chain:
        last = state.chain[-1]
        what = "attack" if last.kind == "attack" else f"{last.effect} support"
        return f"an answer to {last.player}'s {what} (R3)"
    return {"redraw": "the re-draw (§3.3)", "deploy": "the opening deployment (§3.4)", "turn": "the turn"}.get(
        state.phase, state.phase)


def _moment_rule(state: State) -> str:
    if state.pending:
        return "§3"
    if state.conscript is not None:
        return "§6"
    if state.chain:
        return "R3"
    return {"redraw": "§3.3", "deploy": "§3.4"}.get(state.phase, "§4")


Handler = Callable[[Builder, ArtOfWarAction], None]


def _handler(state: State, action: ArtOfWarAction) -> Handler:
    if state.pending:
        allowed: dict[type, Handler] = {Draw: _draw}
    elif state.conscript is not None:
        allowed = {Conscript: _conscript}
    elif state.chain:
        allowed = {Support: _answer, Pass: _pass}
    elif state.phase == "redraw":
        allowed = {Redraw: _redraw}
    elif state.phase == "deploy":
        allowed = {Deploy: _deploy}
    else:
        allowed = {Place: _arrange, Rotate: _arrange, Shift: _arrange, Play: _arrange, Battle: _battle,
                   Attack: _attack, Support: _support, Entry: _entry, End: _end_turn}
    handler = allowed.get(type(action))
    if handler is None:
        raise refuse("wrong_moment", _moment_rule(state), f"{action.player} cannot "
                     f"{type(action).__struct_config__.tag} now: the game awaits {_moment(state)}")
    return handler


def _draw(b: Builder, action: ArtOfWarAction) -> None:
    assert isinstance(action, Draw)
    p = b.state.player(action.player)
    inst = next((i for i in p.deck if kind_of(i) == action.card), None)
    if inst is None:
        raise refuse("not_in_deck", "§3", f"no {action.card!r} is left in {action.player}'s deck")
    b.emit(CardDrawn(player=action.player, card=inst, source="table"))


def _redraw(b: Builder, action: ArtOfWarAction) -> None:
    assert isinstance(action, Redraw)
    s = b.state
    p = s.player(action.player)
    if not action.again:
        if action.cards:
            raise refuse("malformed", "§3.3", "keeping the hand draws no cards")
        b.emit(RedrawDecided(player=p.id, again=False, hand=p.hand, source="prng" if s.mode == "sealed" else "table"))
        return
    pool = p.deck + p.hand
    if s.mode == "sealed":
        if action.cards:
            raise refuse("sealed_deck", "§3.3", "in a sealed game the reshuffled deck deals the three cards")
        from msgspec.structs import replace

        again = replace(s, players=tuple(replace(q, deck=pool) if q.id == p.id else q for q in s.players),
                        reshuffled=s.reshuffled + (p.id,))
        b.emit(RedrawDecided(player=p.id, again=True, hand=top(again, p.id, 3), source="prng"))
        return
    if len(action.cards) != min(3, len(pool)):
        raise refuse("redraw_cards", "§3.3", f"a re-draw at a table enters the {min(3, len(pool))} cards drawn")
    hand: list[str] = []
    left = list(pool)
    for kind in action.cards:
        inst = next((i for i in left if kind_of(i) == kind), None)
        if inst is None:
            raise refuse("not_in_deck", "§3.3", f"no {kind!r} is left to draw in {p.id}'s deck")
        left.remove(inst)
        hand.append(inst)
    b.emit(RedrawDecided(player=p.id, again=True, hand=tuple(hand), source="table"))


def _own_square(square: str, rule: str) -> None:
    if square not in SQUARES:
        raise refuse("no_square", rule, f"{square!r} is no battlefield square: A1-C1 (front), A2-C2 (back)")


def _deploy(b: Builder, action: ArtOfWarAction) -> None:
    assert isinstance(action, Deploy)
    s = b.state
    p = s.player(action.player)
    _own_square(action.square, "§3.4")
    if action.card == action.standby and "." in action.card:
        raise refuse("same_card", "§3.4", "one card goes onto the battlefield and another to the standby")
    card, standby = from_hand(s, p, (action.card, action.standby), "§3.4")
    if not p.deck:
        raise refuse("empty_deck", "§3.4", f"{p.id}'s deck is empty")
    if s.mode == "sealed":
        if action.kingdom is not None:
            raise refuse("sealed_deck", "§3.4", "in a sealed game the deck's top card goes to the kingdom")
        kingdom = top(s, p.id)[0]
    else:
        found = next((i for i in p.deck if kind_of(i) == action.kingdom), None)
        if found is None:
            raise refuse("not_in_deck", "§3.4", f"the top card entered, {action.kingdom!r}, is not left in "
                         f"{p.id}'s deck")
        kingdom = reveal_id(s, p.id, kind_of(found), (card, standby)) if numbers_reveals(s) else found  # R7
    b.emit(Deployed(player=p.id, card=card, square=action.square, standby=standby, kingdom=kingdom,
                    source="prng" if s.mode == "sealed" else "table"))


def _arrange(b: Builder, action: ArtOfWarAction) -> None:
    s = b.state
    p = s.player(action.player)
    if s.action is not None:
        raise refuse("one_arrange", "§4.3", f"{p.id} has {'arranged' if s.action == 'arranged' else 'chosen battle'} "
                     "this turn already: exactly one arrange action, or the battle")
    match action:
        case Place(square=square):
            _own_square(square, "§4.3")
            if not p.standby:
                raise refuse("empty_standby", "§4.3", f"{p.id}'s standby is empty")
            if p.unit_at(square) is not None:
                raise refuse("occupied", "§4.3", f"{square} is occupied: the standby head goes onto an empty square")
            b.emit(Arranged(player=p.id, how="place", square=square,
                            moved=(Placed(card=p.standby[0], square=square),)))
        case Rotate(square=square):
            _own_square(square, "§4.3")
            u = p.unit_at(square)
            if u is None or not p.standby:
                raise refuse("no_rotation", "§4.3", f"a rotation needs a unit on {square} and a standby card")
            b.emit(Arranged(player=p.id, how="rotate", square=square,
                            moved=(Placed(card=u.card, square="standby"), Placed(card=p.standby[0], square=square))))
        case Shift(square=square, to=to):
            _own_square(square, "§4.3")
            _own_square(to, "§4.3")
            u = p.unit_at(square)
            if u is None or to == square:
                raise refuse("no_unit", "§4.3", f"a move needs a unit on {square} and another square")
            other = p.unit_at(to)
            moved = (Placed(card=u.card, square=to),) + ((Placed(card=other.card, square=square),) if other else ())
            b.emit(Arranged(player=p.id, how="shift", square=square, to=to, moved=moved))
        case Play(card=card, square=square):
            _own_square(square, "§4.3")
            if p.standby:
                raise refuse("standby_not_empty", "§4.3", "a card goes from hand onto the battlefield only with an "
                             "empty standby")
            card = from_hand(s, p, (card,), "§4.3")[0]
            u = p.unit_at(square)
            moved = (Placed(card=card, square=square),) + ((Placed(card=u.card, square="hand"),) if u else ())
            b.emit(Arranged(player=p.id, how="play", square=square, card=card, moved=moved))
        case _:
            raise AssertionError(action)


def _battle(b: Builder, action: ArtOfWarAction) -> None:
    if b.state.action is not None:
        raise refuse("one_arrange", "§4.3", "exactly one arrange action, or the battle, a turn")
    b.emit(BattleDeclared(player=action.player))


def _attack(b: Builder, action: ArtOfWarAction) -> None:
    book = cards_of(b.state)
    card_of = book.card
    assert isinstance(action, Attack)
    s = b.state
    p = s.player(action.player)
    if s.action != "battle":
        raise refuse("no_battle", "§4.3", "attacks are the battle's: declare the battle first (instead of arranging)")
    _own_square(action.square, "§5")
    _own_square(action.target, "§5")
    u = p.unit_at(action.square)
    if u is None:
        raise refuse("no_unit", "§5", f"{p.id} has no unit on {action.square}")
    if u.attacked:
        raise refuse("attacked", "§4.3", f"{name(book, u.card)} on {action.square} has attacked this turn: once a "
                     "battle")
    opponent = s.player(s.other(p.id))
    target = opponent.unit_at(action.target)
    if target is None:
        raise refuse("no_target", "§5", f"{opponent.id} has no unit on {action.target}")
    if not reaches(s.index(p.id), card_of(u.card), action.square, action.target):
        raise refuse("out_of_range", "§1", f"{name(book, u.card)} on {action.square} does not reach {action.target}")
    b.emit(AttackDeclared(player=p.id, square=action.square, unit=u.card, target=action.target,
                          value=attack_value(s, p.id, u.card)))


def _support_checks(s: State, action: Support, effects: tuple[str, ...], rule: str) -> str:
    """-> the id the support card goes to the standby as (``from_hand``)."""
    card_of = cards_of(s).card
    p = s.player(action.player)
    card_id = from_hand(s, p, (action.card,), "§4")[0]
    if action.effect not in EFFECTS:
        raise refuse("malformed", "§1", f"a rear support is one of {', '.join(EFFECTS)}, not {action.effect!r}")
    card = card_of(action.card)
    if not card.king and kind_of(action.card) != action.effect:
        raise refuse("wrong_support", "§1", f"{card.name} supports as {kind_of(action.card)}; only a KING may be "
                     "declared as any of the five")
    if action.effect not in effects:
        when = {"guardian": "answers an opposing attack, in the opponent's turn",
                "wizard": "answers an opposing rear support"}.get(action.effect, "is declared in one's own turn, "
                                                                               "not as an answer")
        raise refuse("support_timing", rule, f"not now: a {action.effect.upper()} support {when}")
    if len(p.standby) >= STANDBY_LIMIT:
        raise refuse("standby_full", "§4", f"{p.id}'s standby holds {STANDBY_LIMIT} cards: no rear support")
    return card_id


def _support(b: Builder, action: ArtOfWarAction) -> None:
    assert isinstance(action, Support)
    s = b.state
    card = _support_checks(s, action, OWN_TURN, "§1")
    p = s.player(action.player)
    opponent = s.player(s.other(p.id))
    if action.effect == "archer":
        if action.target is None or opponent.unit_at(action.target) is None:
            raise refuse("no_target", "§1", f"an archer support deals 1 damage to an opposing unit: "
                         f"{opponent.id} has none on {action.target!r}")
        if action.square is not None or action.to is not None:
            raise refuse("malformed", "§1", "an archer support names its target only")
    elif action.effect == "priest":
        if action.square is None or action.to is None or p.unit_at(action.square) is None or \
                action.to not in SQUARES or action.to == action.square:
            raise refuse("no_unit", "§1", "a priest support moves one own unit (square) to another square (to)")
        if action.target is not None:
            raise refuse("malformed", "§1", "a priest support names square and to only")
    elif action.target is not None or action.square is not None or action.to is not None:
        raise refuse("malformed", "§1", "a soldier support names no square")
    b.emit(SupportDeclared(player=p.id, card=card, effect=action.effect,  # type: ignore[arg-type]
                           target=action.target, square=action.square, to=action.to))


def _answer(b: Builder, action: ArtOfWarAction) -> None:
    assert isinstance(action, Support)
    s = b.state
    last = s.chain[-1]
    allowed = ("guardian",) if last.kind == "attack" else ("wizard",)
    card = _support_checks(s, action, allowed, "R3")
    if action.target is not None or action.square is not None or action.to is not None:
        raise refuse("malformed", "R3", "an answer names no square: it cancels or negates the link below")
    b.emit(SupportDeclared(player=action.player, card=card, effect=action.effect))  # type: ignore[arg-type]


def _pass(b: Builder, action: ArtOfWarAction) -> None:
    b.emit(Passed(player=action.player))
    _resolve_chain(b)


def _entry(b: Builder, action: ArtOfWarAction) -> None:
    card_of = cards_of(b.state).card
    assert isinstance(action, Entry)
    p = b.state.player(action.player)
    if p.entered:
        raise refuse("one_entry", "§4", f"{p.id} has put a unit into its kingdom this turn already")
    card = from_hand(b.state, p, (action.card,), "§4")[0]
    if card_of(card).king:
        raise refuse("not_basic", "§4", "only a basic unit enters the kingdom")
    b.emit(Entered(player=p.id, card=card))
    _nation_building(b)


def _conscript(b: Builder, action: ArtOfWarAction) -> None:
    book = cards_of(b.state)
    assert isinstance(action, Conscript)
    p = b.state.player(action.player)
    _own_square(action.square, "§6")
    if p.unit_at(action.square) is not None:
        raise refuse("occupied", "§6", f"{action.square} is occupied")
    if p.standby:
        if action.card not in (None, p.standby[0]):
            raise refuse("standby_first", "§6", f"the standby's cards come first, in order: {name(book, p.standby[0])}")
        b.emit(Conscripted(player=p.id, card=p.standby[0], square=action.square, source="standby"))
    else:
        if action.card is None or action.card not in p.kingdom:
            raise refuse("from_kingdom", "§6", "with the standby empty, a card of the kingdom: name it")
        b.emit(Conscripted(player=p.id, card=action.card, square=action.square, source="kingdom"))


def _end_turn(b: Builder, action: ArtOfWarAction) -> None:
    s = b.state
    b.emit(TurnEnded(player=s.active, next=s.other(s.active)))
    if all(not p.deck for p in b.state.players):  # §7.3: the turn in which both decks are empty is over
        _end(b, end_of_war_winner(b.state), "end_of_war")


def end_of_war_winner(state: State) -> str | None:
    """§7.3's count: more kingdom cards wins, then fewer graveyard cards; equal again: a draw (None)."""
    kingdoms = [len(p.kingdom) for p in state.players]
    graves = [len(p.graveyard) for p in state.players]
    ids = [p.id for p in state.players]
    if kingdoms[0] != kingdoms[1]:
        return ids[0] if kingdoms[0] > kingdoms[1] else ids[1]
    if graves[0] != graves[1]:
        return ids[0] if graves[0] < graves[1] else ids[1]
    return None


def _end(b: Builder, winner: str | None, reason: str) -> None:
    s = b.state
    b.emit(GameEnded(winner=winner, reason=reason,  # type: ignore[arg-type]
                     kingdoms=tuple(len(p.kingdom) for p in s.players),
                     graveyards=tuple(len(p.graveyard) for p in s.players)))


# -- chains, damage, what follows by itself ------------------------------------------------------------------------


def _resolve_chain(b: Builder) -> None:
    s = b.state
    chain = s.chain
    effective = [True] * len(chain)
    for i in range(len(chain) - 2, -1, -1):  # R3: each answer cancels the link below, unless itself cancelled
        effective[i] = not effective[i + 1]
    b.emit(ChainResolved(effective=tuple(effective)))
    base = chain[0]
    if not effective[0]:
        return
    if base.kind == "attack" and base.target is not None:
        _damage(b, base.player, base.target, base.value, base.card, base.square)
    elif base.effect == "archer" and base.target is not None:
        _damage(b, base.player, base.target, 1, base.card, None)
    elif base.effect == "priest" and base.square is not None and base.to is not None:
        p = b.state.player(base.player)
        if p.unit_at(base.square) is not None:
            moves = ((base.square, base.to),) + (((base.to, base.square),) if p.unit_at(base.to) else ())
            b.emit(Moved(player=p.id, moves=moves, forced=False))


def _damage(b: Builder, by: str, square: str, value: int, source: str, source_square: str | None) -> None:
    """R2: one instance: equal to the defence on an undamaged unit captures; above it destroys; else it adds up,
    and two or more instances reaching the defence destroy. R5: 0 is no instance. R6: a captured KING goes to its
    owner's graveyard (and the game ends by execution), never into a kingdom."""
    book = cards_of(b.state)
    card_of = book.card
    s = b.state
    owner = s.other(by)
    unit = s.player(owner).unit_at(square)
    if unit is None:
        return
    if value == 0:  # R5: an attack of 0 deals no damage and is no damage instance
        return
    d = defence(book, unit.card, unit.upright)
    total = unit.damage + value
    if unit.hits == 0 and value == d:
        result = "captured"
    elif unit.hits == 0 and value > d:
        result = "destroyed"
    elif unit.hits >= 1 and total >= d:
        result = "destroyed"
    else:
        result = "damaged"
    king = card_of(unit.card).king
    to = None if result == "damaged" else "kingdom" if result == "captured" and not king else "graveyard"  # R6
    b.emit(Damaged(by=by, source=source, source_square=source_square, owner=owner, square=square, unit=unit.card,
                   value=value, defence=d, total=total, result=result, to=to))  # type: ignore[arg-type]
    if result != "damaged" and king:
        _end(b, by, "execution")  # §7.1
    elif result == "captured":
        _nation_building(b)


def _nation_building(b: Builder) -> None:
    """§7.2: after a card enters a kingdom: more cards than the opponent in 4 of the 5 basic types wins (R4)."""
    s = b.state
    if s.phase == "over":
        return
    counts = [{t: sum(1 for c in p.kingdom if kind_of(c) == t) for t in BASIC_TYPES} for p in s.players]
    leads = [sum(1 for t in BASIC_TYPES if counts[i][t] > counts[1 - i][t]) for i in (0, 1)]
    winners = [s.players[i].id for i in (0, 1) if leads[i] >= 4]
    if winners:
        _end(b, s.active if len(winners) > 1 else winners[0], "nation_building")


def _forced_forward(b: Builder) -> bool:
    """§2: a back-row unit with no unit in front of it moves forward at once."""
    for p in b.state.players:
        moves = tuple((f"{c}2", f"{c}1") for c in "ABC" if p.unit_at(f"{c}2") is not None
                      and p.unit_at(f"{c}1") is None)
        if moves:
            b.emit(Moved(player=p.id, moves=moves, forced=True))
            return True
    return False


def advance(b: Builder) -> None:  # noqa: C901 - one step per procedure
    """Every event the procedures cause until the game awaits a player again (or ends)."""
    while True:
        s = b.state
        if s.phase == "over":
            return
        if s.pending:
            if s.mode == "table":
                return
            seat = s.pending[0]
            b.emit(CardDrawn(player=seat, card=top(s, seat)[0], source="prng"))
            continue
        if s.chain:
            return
        if _forced_forward(b):
            continue
        if s.phase == "redraw":
            if all(p.redraw is not None for p in s.players):
                b.emit(KingsTaken())
                continue
            return
        if s.phase == "deploy":
            if all(p.deployed for p in s.players):
                b.emit(TurnStarted(player=s.first, turn=1))
                continue
            return
        if s.conscript is None:
            empty = next((p for p in _turn_order(s) if not p.field), None)
            if empty is not None:
                if len(empty.standby) + len(empty.kingdom) < 2:  # §6: annihilation
                    _end(b, s.other(empty.id), "annihilation")
                    continue
                b.emit(ConscriptionStarted(player=empty.id))
                continue
        if not s.started:  # a turn ended: the next one starts (§4.1, §4.2)
            b.emit(TurnStarted(player=s.active, turn=s.turn + 1))
            continue
        return


def _turn_order(s: State) -> list[PlayerState]:
    return sorted(s.players, key=lambda p: p.id != s.active)


def opening(state: State) -> tuple[ArtOfWarEvent, ...]:
    b = Builder(state)
    advance(b)
    return tuple(b.events)


# -- legal actions ------------------------------------------------------------------------------------------------


def legal_actions(state: State, seat: str | None = None) -> list[ArtOfWarAction]:
    expected = awaited(state)
    if not expected:
        return []
    seat = expected[0] if seat is None else seat
    if seat not in expected:
        return []
    return list(_legal(state, seat))


def _kinds(cards: tuple[str, ...]) -> list[str]:
    seen: dict[str, None] = {}
    for inst in cards:
        seen.setdefault(kind_of(inst), None)
    return list(seen)


def _hand_names(s: State, p: PlayerState) -> list[str]:
    """How legal actions name ``p``'s hand cards: by id; by type where reveals are numbered (R7: the copy named
    makes no difference there)."""
    return _kinds(p.hand) if numbers_reveals(s) else list(p.hand)


def _deploy_pairs(s: State, p: PlayerState) -> Iterator[tuple[str, str]]:
    """The (battlefield, standby) cards a deployment may take from hand (two of a type: named twice by type)."""
    names = _hand_names(s, p)
    for card in names:
        for standby in names:
            if standby != card or numbers_reveals(s) and sum(1 for c in p.hand if kind_of(c) == card) > 1:
                yield card, standby


def _legal(s: State, seat: str) -> Iterator[ArtOfWarAction]:  # noqa: C901 - one branch per moment
    card_of = cards_of(s).card
    p = s.player(seat)
    opponent = s.player(s.other(seat))
    hand = _hand_names(s, p)
    if s.pending:
        for kind in _kinds(p.deck):
            yield Draw(player=seat, card=kind)
        return
    if s.conscript is not None:
        empty = [sq for sq in SQUARES if p.unit_at(sq) is None]
        for sq in empty:
            if p.standby:
                yield Conscript(player=seat, square=sq)
            else:
                for card in dict.fromkeys(p.kingdom):
                    yield Conscript(player=seat, square=sq, card=card)
        return
    if s.chain:
        yield Pass(player=seat)
        effect = "guardian" if s.chain[-1].kind == "attack" else "wizard"
        if len(p.standby) < STANDBY_LIMIT:
            for card in hand:
                if kind_of(card) == effect or card_of(card).king:
                    yield Support(player=seat, card=card, effect=effect)
        return
    if s.phase == "redraw":
        yield Redraw(player=seat, again=False)
        if s.mode == "sealed":
            yield Redraw(player=seat, again=True)
        else:
            pool = p.deck + p.hand
            for cards in combinations_with_replacement(_kinds(pool), min(3, len(pool))):
                if all(sum(1 for i in pool if kind_of(i) == k) >= cards.count(k) for k in cards):
                    yield Redraw(player=seat, again=True, cards=cards)
        return
    if s.phase == "deploy":
        kingdoms: list[str | None] = [None] if s.mode == "sealed" else list(_kinds(p.deck))
        for card, standby in _deploy_pairs(s, p):
            for sq in SQUARES:
                for kingdom in kingdoms:
                    yield Deploy(player=seat, card=card, square=sq, standby=standby, kingdom=kingdom)
        return
    yield End(player=seat)
    if not p.entered:
        for card in hand:
            if not card_of(card).king:
                yield Entry(player=seat, card=card)
    if len(p.standby) < STANDBY_LIMIT:
        for card in hand:
            effects = OWN_TURN if card_of(card).king else ((kind_of(card),) if kind_of(card) in OWN_TURN else ())
            for effect in effects:
                if effect == "soldier":
                    yield Support(player=seat, card=card, effect=effect)
                elif effect == "archer":
                    for slot in opponent.field:
                        yield Support(player=seat, card=card, effect=effect, target=slot.square)
                else:
                    for slot in p.field:
                        for to in SQUARES:
                            if to != slot.square:
                                yield Support(player=seat, card=card, effect=effect, square=slot.square, to=to)
    if s.action is None:
        yield Battle(player=seat)
        for sq in SQUARES:
            u = p.unit_at(sq)
            if u is None and p.standby:
                yield Place(player=seat, square=sq)
            if u is not None:
                if p.standby:
                    yield Rotate(player=seat, square=sq)
                for to in SQUARES:
                    if to != sq:
                        yield Shift(player=seat, square=sq, to=to)
            if not p.standby:
                for card in hand:
                    yield Play(player=seat, card=card, square=sq)
    elif s.action == "battle":
        for slot in p.field:
            if slot.unit.attacked:
                continue
            for target in opponent.field:
                if reaches(s.index(seat), card_of(slot.unit.card), slot.square, target.square):
                    yield Attack(player=seat, square=slot.square, target=target.square)


__all__ = ["advance", "attack_value", "decide", "defence", "legal_actions", "opening"]
