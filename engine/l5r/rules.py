"""``decide`` (checks an action against the digest's procedures, returns every event it causes) and
``legal_actions``.

Each action's first event is the fact the player made; what the procedures then do by themselves follows from
``advance``: draws in sealed mode, the start of a turn (straighten, reveal), a window closed by two passes, a battle
to resolve, a duel that struck, the end phase's draw, eliminations and the end of the game. Rule ids are the
digest's (§3.3, R2, ...); docs/l5r.md lists every refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from engine.errors import RuleError
from engine.l5r.actions import (
    Army,
    Attach,
    Attack,
    Challenge,
    Concede,
    Discard,
    DiscardDynasty,
    Draw,
    Effect,
    Focus,
    L5RAction,
    Pass,
    PlayRing,
    PlayStrategy,
    Produce,
    Recruit,
    Strike,
)
from engine.l5r.catalogue import ELEMENTS, CardBook, cards_of, owner_of
from engine.l5r.state import (
    MAX_FOCUS,
    WINDOWS_OF_TWO,
    InPlay,
    Pending,
    PlayerState,
    State,
    apply,
    awaited,
    fate_left,
    focus_count,
    freeze,
    thaw,
    top,
    unseen_of,
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
    EffectApplied,
    FocusCard,
    FocusRevealed,
    GameEnded,
    GoldProduced,
    HonorChange,
    HonorChanged,
    L5REvent,
    NothingDrawn,
    Passed,
    PhaseStarted,
    PlayerEliminated,
    ProvinceFilled,
    Revealed,
    RingPlayed,
    StrategyPlayed,
    TurnEnded,
    TurnStarted,
)

HAND_LIMIT = 8  # §3.4
HONOR_VICTORY = 40  # §6
HONOR_ELIMINATION = -20  # §6
CLAN_SURCHARGE = 2  # §3.3
EFFECT_KINDS = ("force", "chi", "honor", "duel", "province", "family_honor", "gold", "bow", "straighten", "dishonor",
                "restore", "destroy", "send_home", "discard", "draw", "remove", "eliminate", "win")
CARD_KINDS = ("force", "chi", "honor", "duel", "bow", "straighten", "dishonor", "restore", "destroy", "send_home")


class Builder:
    """Events as decide emits them, and the state after each (so a consequence reads the state it follows). They are
    applied to one working state (``engine.l5r.state``'s ``apply``, as ``fold`` does), frozen when ``state`` is read
    after a change: one thaw a decision rather than a thaw and a freeze an event."""

    def __init__(self, state: State) -> None:
        self._work = thaw(state)
        self._state: State | None = state
        self.events: list[L5REvent] = []
        self.book = cards_of(state)  # the game's cards (its catalogue never changes in a game)

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = freeze(self._work)
        return self._state

    def emit(self, event: L5REvent) -> None:
        self.events.append(event)
        apply(self._work, event)
        self._state = None


# -- reading the state ------------------------------------------------------------------------------------------


def seat_ids(state: State) -> tuple[str, ...]:
    return tuple(p.id for p in state.players)


def modifier(state: State, target: str, stat: str) -> int:
    return sum(m.amount for m in state.modifiers if m.target == target and m.stat == stat)


def attachments(player: PlayerState, personality: str) -> tuple[InPlay, ...]:
    return tuple(c for c in player.cards if c.on == personality)


def force_of(state: State, personality: str) -> int:
    """A personality's force: its own, its items' (whatever their state) and recorded modifiers (§4)."""
    card_of = cards_of(state).card
    p = state.player(owner_of(personality))
    items = sum(card_of(a.id).force for a in attachments(p, personality) if card_of(a.id).kind == "item")
    return card_of(personality).force + items + modifier(state, personality, "force")


def chi_of(state: State, personality: str) -> int:
    card_of = cards_of(state).card
    p = state.player(owner_of(personality))
    items = sum(card_of(a.id).chi for a in attachments(p, personality) if card_of(a.id).kind == "item")
    return card_of(personality).chi + items + modifier(state, personality, "chi")


def honor_of(state: State, personality: str) -> int:
    card_of = cards_of(state).card
    return card_of(personality).personal_honor + modifier(state, personality, "honor")


def unit_force(state: State, personality: str) -> int:
    """What a unit adds to its army (§4): the personality's force if it stands, each standing follower's."""
    card_of = cards_of(state).card
    owner = state.player(owner_of(personality))
    card = state.in_play(personality)
    total = force_of(state, personality) if card is not None and not card.bowed else 0
    for a in attachments(owner, personality):
        if card_of(a.id).kind == "follower" and not a.bowed:
            total += card_of(a.id).force + modifier(state, a.id, "force")
    return total


def army_force(state: State, units: Sequence[str]) -> int:
    return sum(unit_force(state, u) for u in units)


def army_cards(state: State, units: Sequence[str]) -> list[str]:
    """Every card of an army: personalities and their attachments."""
    out: list[str] = []
    for u in units:
        out.append(u)
        out += [a.id for a in attachments(state.player(owner_of(u)), u)]
    return out


def province_strength(state: State, seat: str, number: int) -> int:
    return state.player(seat).strength + modifier(state, f"{seat}:{number}", "province")


def duel_base(state: State, personality: str, stat: str) -> int:
    value = {"chi": chi_of, "force": force_of, "honor": honor_of}[stat](state, personality)
    return value + modifier(state, personality, "duel")


def personalities(book: CardBook, player: PlayerState) -> list[InPlay]:
    card_of = book.card
    return [c for c in player.cards if c.on is None and card_of(c.id).kind == "personality"]


def home_clans(book: CardBook, player: PlayerState) -> set[str]:
    """The clans at a player's home: its stronghold's (D5) and its personalities' (a card of no clan adds none, R5)."""
    card_of = book.card
    return {player.clan} | {clan for c in personalities(book, player) if (clan := card_of(c.id).clan) is not None}


def recruit_cost(book: CardBook, player: PlayerState, card: str) -> tuple[int, int]:
    """(gold to pay, of it the clan surcharge): §3.3; a card of no clan never pays it (R5)."""
    card_of = book.card
    c = card_of(card)
    foreign = c.kind == "personality" and c.clan is not None and c.clan not in home_clans(book, player)
    surcharge = CLAN_SURCHARGE if foreign else 0
    return c.cost + surcharge, surcharge


def gold_sources(book: CardBook, player: PlayerState) -> list[str]:
    """The standing stronghold and holdings a player may bow for gold."""
    card_of = book.card
    out = [] if player.stronghold_bowed else [player.stronghold]
    return out + [c.id for c in player.cards if not c.bowed and card_of(c.id).kind == "holding"]


def gold_of(book: CardBook, player: PlayerState, card: str) -> int:
    card_of = book.card
    return player.production if card == player.stronghold else card_of(card).gold


def deck_cards(deck: Sequence[str]) -> list[str]:
    """The distinct card ids among unseen cards (table mode: what an entry may name), sorted: their order never
    depends on where the unseen cards lie."""
    return sorted({inst.split(".")[1] for inst in deck})


def current_field(state: State) -> int | None:
    return state.battlefields[state.battle] if state.phase == "battle" and state.battlefields else None


def army_at(state: State, side: str, field: int) -> tuple[str, ...]:
    for a in state.armies:
        if a.side == side and a.battlefield == field:
            return a.units
    return ()


def window(state: State) -> str:
    if state.phase == "battle":
        return state.segment
    return state.phase


# -- decide -----------------------------------------------------------------------------------------------------


def refuse(code: str, rule: str, message: str) -> RuleError:
    return RuleError(code, rule, message)


def decide(state: State, action: L5RAction) -> tuple[L5REvent, ...]:
    if state.phase == "setup":
        raise refuse("not_started", "§2", "the game has not started")
    if state.phase == "over":
        raise refuse("game_over", "§6", "the game is over")
    seat = action.player
    if seat not in seat_ids(state):
        raise refuse("unknown_player", "§2", f"no player {seat!r} in this game: {', '.join(seat_ids(state))}")
    b = Builder(state)
    if isinstance(action, Concede):
        b.emit(Conceded(player=seat))
        b.emit(GameEnded(winner=state.other(seat), reason="concession", honor=tuple(p.honor for p in state.players)))
        return tuple(b.events)
    if isinstance(action, Focus) and state.duel is not None and focus_count(state.duel, seat) >= MAX_FOCUS:
        raise refuse("fifth_focus", "§5.2", f"{seat} has focused {MAX_FOCUS} times, the most in one duel")
    expected = awaited(state)
    if seat not in expected and not continues_action(state, action):
        raise refuse("not_your_turn", _turn_rule(state), f"the game awaits {' or '.join(expected)}: "
                     f"{_awaiting(state)}")
    handler = _handler(state, action)
    handler(b, action)
    advance(b)
    return tuple(b.events)


def continues_action(state: State, action: L5RAction) -> bool:
    """R6: an effect of the card whose action its seat just took (a strategy's text, a duel's initiating card), while
    the other seat has the turn and has not acted or passed since."""
    return (isinstance(action, Effect) and state.one_action_at_a_time and state.duel is None and not state.pending
            and state.action_card is not None and action.card == state.action_card
            and owner_of(state.action_card) == action.player)


def _turn_rule(state: State) -> str:
    """The rule a seat acting out of turn breaks."""
    if not (state.pending and state.mode == "table") and state.duel is None and state.one_action_at_a_time and \
            window(state) in WINDOWS_OF_TWO:
        return "R6"
    return _phase_rule(state)


def _phase_rule(state: State) -> str:
    """The rule of the step the game is in."""
    if state.pending and state.mode == "table":
        return "§2"
    if state.duel is not None:
        return "§5.2"
    return {"action": "§3.1", "attack": "§3.2", "maneuvers": "§3.2", "battle": "§3.2", "dynasty": "§3.3",
            "end": "§3.4"}.get(state.phase, "§3")


def _awaiting(state: State) -> str:
    if state.pending and state.mode == "table":
        p = state.pending[0]
        return f"the card {p.player} {ENTRIES[p.dest].format(n=p.province)}"
    if state.duel is not None:
        return f"{state.duel.next}'s focus or strike in the duel"
    if state.one_action_at_a_time and window(state) in WINDOWS_OF_TWO:
        where = "the action phase" if state.phase == "action" else f"the {state.segment} segment"
        return f"one action or a pass in {where}, each player in turn (R6)"
    return {"action": "an action or a pass in the action phase", "attack": "the attack phase's declaration or pass",
            "maneuvers": "armies for the battlefields", "battle": f"actions in the {state.segment} segment",
            "dynasty": "recruiting in the dynasty phase", "end": "discards down to 8 cards"}.get(state.phase, "")


Handler = Callable[[Builder, L5RAction], None]


def _handler(state: State, action: L5RAction) -> Handler:
    if state.pending and state.mode == "table":
        allowed: dict[type, Handler] = {Draw: _draw}
        where = "a card to draw or place is awaited first"
    elif state.duel is not None:
        allowed = {Focus: _focus, Strike: _strike, Effect: _effect}
        where = "a duel is under way: focus or strike (§5.2)"
    else:
        by_phase: dict[str, dict[type, Handler]] = {
            "action": {Pass: _pass, Produce: _produce, Attach: _attach, PlayRing: _play_ring,
                       PlayStrategy: _play_strategy, Effect: _effect, Challenge: _challenge},
            "attack": {Attack: _attack, Pass: _pass},
            "maneuvers": {Army: _army, Pass: _pass},
            "battle": {Pass: _pass, Produce: _produce, PlayStrategy: _play_strategy, Effect: _effect,
                       Challenge: _challenge},
            "dynasty": {Produce: _produce, Recruit: _recruit, DiscardDynasty: _discard_dynasty, Effect: _effect,
                        Pass: _pass},
            "end": {Discard: _discard},
        }
        allowed = by_phase.get(state.phase, {})
        where = f"it is the {state.phase} phase ({_awaiting(state)})"
    handler = allowed.get(type(action))
    if handler is None:
        raise refuse("wrong_phase", _phase_rule(state), f"{action.player} cannot {type(action).__struct_config__.tag} "
                     f"now: {where}")
    return handler


ENTRIES = {"hand": "draws", "reveal": "turns face up in province {n}",
           "discard": "discards from destroyed province {n}", "focus": "laid unseen as a focus card, revealed",
           "province": "places face down in province {n}"}


def unseen_pool(s: State, pending: Pending) -> tuple[str, ...]:
    """Table mode: the cards an awaited entry may name: those of the deck it comes from that nobody has seen (the
    deck, and the cards laid face down unseen from it); never anything that depends on a face-down card (item 17)."""
    p = s.player(pending.player)
    return p.fate if pending.dest in ("hand", "focus") else p.dynasty


def _draw(b: Builder, action: L5RAction) -> None:
    """Table mode: the card an awaited draw took, or an unseen card as it turns face up."""
    book = b.book
    card_of = book.card
    assert isinstance(action, Draw)
    s = b.state
    pending = s.pending[0]
    inst = unseen_of(unseen_pool(s, pending), action.card)
    if inst is None:
        which = "fate" if pending.dest in ("hand", "focus") else "dynasty"
        raise refuse("not_in_deck", "§2", f"{_card_name(book, action.card)} is not among {action.player}'s {which} "
                     "cards not yet seen (its deck and the cards laid face down unseen from it)")
    if pending.dest == "hand":
        b.emit(CardDrawn(player=action.player, card=inst, source="table"))
    elif pending.dest == "focus":
        b.emit(FocusRevealed(player=action.player, card=inst))
    elif pending.dest == "discard":  # the card of a destroyed province, turned face up as it is discarded
        b.emit(CardsRevealed(player=action.player, cards=(Revealed(province=pending.province, card=inst),),
                             discarded=(inst,), table=True))
    else:  # reveal: §3.1, a province's card turns face up; an event is discarded and the province refilled (D2)
        event = card_of(inst).kind == "event"
        b.emit(CardsRevealed(player=action.player, cards=(Revealed(province=pending.province, card=inst),),
                             discarded=(inst,) if event else (), table=True))
        if event:
            _refilled(b, action.player, pending.province)


def _card_name(book: CardBook, card_id: str) -> str:
    card = book.cards.get(card_id)
    return f"{card.name} ({card_id})" if card else repr(card_id)


def _pass(b: Builder, action: L5RAction) -> None:
    b.emit(Passed(player=action.player, window=window(b.state)))


def _produce(b: Builder, action: L5RAction) -> None:
    book = b.book
    assert isinstance(action, Produce)
    p = b.state.player(action.player)
    if action.card not in gold_sources(book, p):
        raise refuse("no_gold_source", "§3.3", f"{action.player} produces gold by bowing its standing stronghold or "
                     f"a standing holding; {_named(book, action.card)} is not one")
    b.emit(GoldProduced(player=action.player, card=action.card, gold=gold_of(book, p, action.card)))


def _named(book: CardBook, instance: str) -> str:
    try:
        return f"{book.card(instance).name} ({instance})"
    except (KeyError, IndexError):
        return repr(instance)


def _recruit(b: Builder, action: L5RAction) -> None:
    book = b.book
    card_of = book.card
    assert isinstance(action, Recruit)
    s = b.state
    p = s.player(action.player)
    province = next((pr for pr in p.provinces if pr.number == action.province), None)
    if province is None or province.card is None or not province.face_up:
        raise refuse("nothing_to_recruit", "§3.3", f"{action.player} has no face-up card in province "
                     f"{action.province}")
    card = card_of(province.card)
    if card.kind not in ("personality", "holding"):
        raise refuse("not_recruitable", "§3.3", f"{card.name} is a {card.kind}, not recruited")
    if card.kind == "personality" and p.honor < card.honor_req:
        raise refuse("honor_requirement", "§3.3", f"{card.name} requires family honour {card.honor_req}; "
                     f"{action.player} has {p.honor}")
    cost, surcharge = recruit_cost(book, p, province.card)
    if p.gold < cost:
        extra = f" ({card.cost} + {surcharge} for a clan not yet at home)" if surcharge else ""
        raise refuse("not_enough_gold", "§3.3", f"{card.name} costs {cost} gold{extra}; {action.player} has "
                     f"produced {p.gold}")
    if action.proclaim:
        if card.kind != "personality" or card.clan != p.clan:
            what = card.kind if card.kind != "personality" else card.clan or "of no clan"
            raise refuse("cannot_proclaim", "§3.3", f"only a personality of {action.player}'s own clan ({p.clan}) "
                         f"is proclaimed; {card.name} is {what}")
        if p.proclaimed:
            raise refuse("cannot_proclaim", "§3.3", f"{action.player} has proclaimed once this turn already")
    b.emit(CardRecruited(player=action.player, province=action.province, card=province.card, gold=cost,
                         surcharge=surcharge, proclaimed=action.proclaim))
    _refilled(b, action.player, action.province)
    if action.proclaim and card.personal_honor:
        _honor(b, action.player, card.personal_honor, "proclaim")


def _honor(b: Builder, seat: str, amount: int, reason: str) -> None:
    if amount:
        total = b.state.player(seat).honor + amount
        b.emit(HonorChanged(player=seat, amount=amount, total=total, reason=reason))  # type: ignore[arg-type]


def _own_personality(s: State, seat: str, instance: str, rule: str, what: str) -> InPlay:
    book = cards_of(s)
    card_of = book.card
    card = s.in_play(instance)
    if card is None or owner_of(instance) != seat or card.on is not None or card_of(instance).kind != "personality":
        raise refuse("no_such_personality", rule, f"{_named(book, instance)} is not {what} of {seat}'s in play")
    return card


def _in_hand(s: State, seat: str, instance: str, kinds: tuple[str, ...], rule: str) -> None:
    book = cards_of(s)
    card_of = book.card
    if instance not in s.player(seat).hand:
        raise refuse("not_in_hand", rule, f"{_named(book, instance)} is not in {seat}'s hand")
    if card_of(instance).kind not in kinds:
        raise refuse("wrong_card", rule, f"{card_of(instance).name} is a {card_of(instance).kind}, not a "
                     f"{' or '.join(kinds)}")


def _attach(b: Builder, action: L5RAction) -> None:
    card_of = b.book.card
    assert isinstance(action, Attach)
    s = b.state
    _in_hand(s, action.player, action.card, ("follower", "item", "spell"), "§3.1")
    _own_personality(s, action.player, action.to, "§3.1", "a personality")
    card = card_of(action.card)
    if card.kind == "spell" and not card_of(action.to).shugenja:
        raise refuse("not_a_shugenja", "§1", f"{card.name} is a spell: only a shugenja takes it, and "
                     f"{card_of(action.to).name} is not one")
    p = s.player(action.player)
    if p.gold < card.cost:
        raise refuse("not_enough_gold", "§3.1", f"{card.name} costs {card.cost} gold; {action.player} has "
                     f"produced {p.gold}")
    b.emit(CardAttached(player=action.player, card=action.card, to=action.to, gold=card.cost))


def _rings(book: CardBook, p: PlayerState) -> set[str]:
    card_of = book.card
    return {card_of(c.id).element or "" for c in p.cards if card_of(c.id).kind == "ring"}


def _play_ring(b: Builder, action: L5RAction) -> None:
    book = b.book
    card_of = book.card
    assert isinstance(action, PlayRing)
    s = b.state
    _in_hand(s, action.player, action.card, ("ring",), "§1")
    element = card_of(action.card).element or ""
    if element in _rings(book, s.player(action.player)):
        raise refuse("ring_in_play", "§6", f"{action.player} already has the ring of {element} in play")
    b.emit(RingPlayed(player=action.player, card=action.card, element=element))
    if _rings(book, b.state.player(action.player)) >= set(ELEMENTS):
        b.emit(GameEnded(winner=action.player, reason="enlightenment",
                         honor=tuple(p.honor for p in b.state.players)))


def _play_strategy(b: Builder, action: L5RAction) -> None:
    card_of = b.book.card
    assert isinstance(action, PlayStrategy)
    s = b.state
    _in_hand(s, action.player, action.card, ("strategy",), "§3.1")
    cost = card_of(action.card).cost
    if s.player(action.player).gold < cost:
        raise refuse("not_enough_gold", "§3.1", f"{card_of(action.card).name} costs {cost} gold; {action.player} has "
                     f"produced {s.player(action.player).gold}")
    b.emit(StrategyPlayed(player=action.player, card=action.card, gold=cost))


def _controls(s: State, seat: str, card: str) -> bool:
    """The acting card is the seat's: in play, its stronghold or sensei, in its hand, a strategy it played this
    turn, a face-up province card, or a focus card of the duel under way."""
    p = s.player(seat)
    if card in (p.stronghold, p.sensei) or card in p.hand or card in p.played:
        return True
    if any(c.id == card for c in p.cards):
        return True
    if any(pr.card == card and pr.face_up for pr in p.provinces):
        return True
    return s.duel is not None and any(f.card == card and f.player == seat for f in s.duel.focuses)


def _effect(b: Builder, action: L5RAction) -> None:  # noqa: C901 - one check per kind
    book = b.book
    card_of = book.card
    assert isinstance(action, Effect)
    s = b.state
    seat, kind, target, amount = action.player, action.kind, action.target, action.amount
    if kind not in EFFECT_KINDS or action.until not in ("battle", "turn", "game"):
        raise refuse("malformed", "§3.1", f"an effect's kind is one of {', '.join(EFFECT_KINDS)} and it lasts until "
                     f"the battle, turn or game ends, not {kind!r} until {action.until!r}")
    if not _controls(s, seat, action.card):
        raise refuse("no_such_card", "§3.1", f"{_named(book, action.card)} is not a card of {seat}'s in play, in hand "
                     "or just played: an effect names the card whose text acts")
    if action.until == "battle" and s.phase != "battle":
        raise refuse("no_battle", "§3.2", "an effect lasts until the end of the battle only during a battle")
    if kind in CARD_KINDS:
        card = s.in_play(target)
        if card is None and not (kind in ("bow", "straighten") and _is_stronghold(s, target)):
            raise refuse("no_target", "§3.1", f"the target {_named(book, target)} is not in play")
        c = card_of(target)
        if kind in ("force", "chi", "honor", "duel", "dishonor", "restore", "send_home") and \
                c.kind not in ("personality", "follower"):
            raise refuse("wrong_target", "§3.1", f"{c.name} is a {c.kind}: {kind} applies to a personality")
        if kind in ("honor", "duel", "dishonor", "restore", "send_home") and c.kind != "personality":
            raise refuse("wrong_target", "§3.1", f"{c.name} is a {c.kind}: {kind} applies to a personality")
        if kind in ("force", "chi", "honor", "duel") and amount == 0:
            raise refuse("no_change", "§3.1", "a modifier changes its stat by a non-zero amount")
        if kind == "duel" and (s.duel is None or target not in (s.duel.challenger, s.duel.challenged)):
            raise refuse("no_duel", "§5.1", f"{c.name} is not fighting a duel")
        if kind == "dishonor" and card is not None and card.dishonored:
            raise refuse("already", "§1", f"{c.name} is dishonoured already")
        if kind == "restore" and card is not None and not card.dishonored:
            raise refuse("already", "§1", f"{c.name} is not dishonoured")
        if kind == "bow" and (card.bowed if card else s.player(owner_of(target)).stronghold_bowed):
            raise refuse("already", "§1", f"{c.name} is bowed already")
        if kind == "straighten" and not (card.bowed if card else s.player(owner_of(target)).stronghold_bowed):
            raise refuse("already", "§1", f"{c.name} is standing already")
        if kind == "send_home" and s.army_of(target) is None:
            raise refuse("not_in_battle", "§3.2", f"{c.name} is not in an army")
    elif kind == "province":
        owner, _, number = target.partition(":")
        if owner not in seat_ids(s) or not number.isdigit() or \
                all(pr.number != int(number) for pr in s.player(owner).provinces):
            raise refuse("no_target", "§4", f"no province {target!r} (seat:number of a province not destroyed)")
        if amount == 0:
            raise refuse("no_change", "§4", "a province's strength changes by a non-zero amount")
    elif kind in ("family_honor", "gold", "draw"):
        if target not in seat_ids(s):
            raise refuse("no_target", "§1", f"{kind} targets a player: {', '.join(seat_ids(s))}")
        if amount == 0 or (kind == "gold" and (target != seat or amount < 0)) or (kind == "draw" and
                                                                                  not 1 <= amount <= HAND_LIMIT):
            raise refuse("no_change", "§1", f"{kind}: an amount of {amount} for {target} is not a change a card "
                         "makes (gold: to oneself, more; draw: 1 to 8 cards)")
    elif kind == "discard":
        if owner_of(target) not in seat_ids(s) or target not in s.player(owner_of(target)).hand:
            raise refuse("no_target", "§1", f"{_named(book, target)} is not in a hand")
    elif kind == "remove":
        _removable(s, target)
    elif kind in ("eliminate", "win"):
        if target not in seat_ids(s) or s.player(target).eliminated:
            raise refuse("no_target", "R9", f"{kind} names a player still in the game: "
                         f"{', '.join(p.id for p in s.players if not p.eliminated)}, not {target!r}")
        if amount:
            raise refuse("no_change", "R9", f"a card that {'eliminates a player' if kind == 'eliminate' else 'wins'}"
                         " the game gives no amount")
    destroyed: list[str] = []
    after = s
    if kind == "destroy":
        destroyed = [target]
    elif kind == "chi":
        if chi_of(s, target) + amount <= 0 and card_of(target).kind == "personality":
            destroyed = [target]  # §4: a personality whose chi reaches 0 is destroyed
    b.emit(EffectApplied(player=seat, card=action.card, kind=kind, target=target, amount=amount,
                         until=action.until, destroyed=tuple(destroyed)))
    if kind == "family_honor":
        _honor(b, target, amount, "effect")
    elif kind == "draw":
        drawn = sum(1 for x in b.state.pending if x.player == target and x.dest == "hand") - \
            sum(1 for x in s.pending if x.player == target and x.dest == "hand")
        for _ in range(amount - drawn):  # R9: a draw from an empty deck draws nothing
            b.emit(NothingDrawn(player=target, deck="fate"))
    elif kind == "eliminate":  # R9: a card that says so (§6); the last one standing wins (advance)
        b.emit(PlayerEliminated(player=target, reason="card", card=action.card))
    elif kind == "win":  # R9: a card's own victory condition
        b.emit(GameEnded(winner=target, reason="card", honor=tuple(p.honor for p in b.state.players),
                         card=action.card))
        return
    _honor_losses(b, after, destroyed)


def _removable(s: State, target: str) -> None:
    """A card an effect may remove from the game (R9): one in play (not a stronghold or sensei), in a hand or in a
    discard pile."""
    book = cards_of(s)
    owner = owner_of(target)
    if owner not in seat_ids(s):
        raise refuse("no_target", "R9", f"{_named(book, target)} is not a card in play, in a hand or in a discard pile")
    p = s.player(owner)
    if s.in_play(target) is None and target not in p.hand and target not in p.dynasty_discard + p.fate_discard:
        raise refuse("no_target", "R9", f"{_named(book, target)} is not a card in play, in a hand or in a discard pile")


def _is_stronghold(s: State, target: str) -> bool:
    return any(p.stronghold == target for p in s.players)


def _honor_losses(b: Builder, before: State, destroyed: Sequence[str], restored: Sequence[str] = ()) -> None:
    """A dishonoured personality destroyed loses its owner family honour equal to its personal honour (§4)."""
    card_of = b.book.card
    for inst in destroyed:
        card = before.in_play(inst)
        if card is not None and card.dishonored and inst not in restored and card_of(inst).kind == "personality":
            _honor(b, owner_of(inst), -honor_of(before, inst), "dishonored_destroyed")


def _attack(b: Builder, action: L5RAction) -> None:
    s = b.state
    defender = s.other(action.player)
    fields = tuple(pr.number for pr in s.player(defender).provinces)
    b.emit(AttackDeclared(player=action.player, defender=defender, battlefields=fields))


def available_units(s: State, seat: str) -> list[str]:
    """Standing personalities of ``seat`` not in an army yet (§3.2)."""
    book = cards_of(s)
    return [c.id for c in personalities(book, s.player(seat)) if not c.bowed and s.army_of(c.id) is None]


def _army(b: Builder, action: L5RAction) -> None:
    book = b.book
    card_of = book.card
    assert isinstance(action, Army)
    s = b.state
    side = "defender" if action.player == s.defender else "attacker"
    if action.battlefield not in s.battlefields:
        raise refuse("no_battlefield", "§3.2", f"there is no battlefield at province {action.battlefield}: the "
                     f"battlefields are {', '.join(map(str, s.battlefields))}")
    if army_at(s, side, action.battlefield):
        raise refuse("one_army_per_battlefield", "§3.2", f"the {side} has an army at battlefield "
                     f"{action.battlefield} already: at most one army per battlefield per side")
    if not action.units or len(set(action.units)) != len(action.units):
        raise refuse("empty_army", "§3.2", "an army is one or more different personalities")
    free = available_units(s, action.player)
    for unit in action.units:
        card = s.in_play(unit)
        if card is None or owner_of(unit) != action.player or card_of(unit).kind != "personality" or card.on:
            raise refuse("no_such_personality", "§3.2", f"{_named(book, unit)} is not a personality of "
                         f"{action.player}'s in play")
        if card.bowed:
            raise refuse("bowed_unit", "§3.2", f"{card_of(unit).name} is bowed: an army is formed from standing "
                         "personalities")
        if unit not in free:
            raise refuse("already_in_army", "§3.2", f"{card_of(unit).name} is in an army already")
    b.emit(ArmyAssigned(player=action.player, side=side, battlefield=action.battlefield,  # type: ignore[arg-type]
                        units=tuple(sorted(action.units))))


def _challenge(b: Builder, action: L5RAction) -> None:
    book = b.book
    card_of = book.card
    assert isinstance(action, Challenge)
    s = b.state
    if action.stat not in ("chi", "force", "honor"):
        raise refuse("malformed", "§5.1", f"a duel is fought on chi, force or honor, not {action.stat!r}")
    _own_personality(s, action.player, action.challenger, "§5.1", "a personality")  # standing or bowed (R8)
    other = s.other(action.player)
    theirs = s.in_play(action.challenged)
    if theirs is None or owner_of(action.challenged) != other or theirs.on is not None or \
            card_of(action.challenged).kind != "personality":
        raise refuse("no_such_personality", "§5.1", f"{_named(book, action.challenged)} is not a personality of "
                     f"{other}'s in play")
    field = current_field(s)
    if field is not None:
        here = set(army_at(s, "attacker", field)) | set(army_at(s, "defender", field))
        for inst in (action.challenger, action.challenged):
            if inst not in here:
                raise refuse("not_in_battle", "§5.1", f"{card_of(inst).name} is not in this battle (battlefield "
                             f"{field})")
    if action.card is not None and not _controls(s, action.player, action.card):
        raise refuse("no_such_card", "§5.1", f"{_named(book, action.card)} is not a card of {action.player}'s")
    if action.stat != "chi" and action.card is None:
        raise refuse("duel_stat", "§5.1", f"the duel stat is chi unless a card says otherwise: name the card for "
                     f"{action.stat}")
    if not action.destroy_loser and action.card is None:
        raise refuse("duel_loser", "§5.3", "the loser is destroyed unless the initiating card says otherwise: name "
                     "the card")
    b.emit(DuelChallenged(player=action.player, challenger=action.challenger, challenged=action.challenged,
                          stat=action.stat, card=action.card, destroy_loser=action.destroy_loser))


def _focus(b: Builder, action: L5RAction) -> None:
    assert isinstance(action, Focus)
    s = b.state
    p = s.player(action.player)
    if action.source not in ("hand", "deck"):
        raise refuse("malformed", "§5.2", f"a focus comes from hand or deck, not {action.source!r}")
    if action.source == "hand":
        if action.card is None or action.card not in p.hand:
            raise refuse("not_in_hand", "§5.2", f"a focus from hand names a fate card in {action.player}'s hand, "
                         f"not {action.card!r}")
        b.emit(DuelFocused(player=action.player, source="hand", card=action.card))
    else:
        if fate_left(s, action.player) <= 0:
            raise refuse("empty_deck", "§5.2", f"{action.player}'s fate deck is empty: focus from hand or strike")
        if s.mode == "sealed":
            if action.card is not None:
                raise refuse("sealed_deck", "§5.2", "in a sealed game the top card of the deck is the deck's; "
                             "give no card")
            b.emit(DuelFocused(player=action.player, source="deck", card=top(s, action.player, "fate")))
        else:
            if action.card is not None:
                raise refuse("unseen_focus", "§5.2", "the top card of the deck is laid face down unseen: give no "
                             "card (it is entered when the duel reveals it)")
            b.emit(DuelFocused(player=action.player, source="deck", card=None, unseen=True))
    if b.state.duel is not None and b.state.duel.next is None:
        b.emit(DuelStruck(player=None))  # R2: both have focused four times


def _strike(b: Builder, action: L5RAction) -> None:
    b.emit(DuelStruck(player=action.player))


def _resolve_duel(b: Builder) -> None:
    card_of = b.book.card
    s = b.state
    duel = s.duel
    assert duel is not None
    base = (duel_base(s, duel.challenger, duel.stat), duel_base(s, duel.challenged, duel.stat))
    revealed = tuple(FocusCard(player=f.player, card=f.card, focus=card_of(f.card).focus,
                               source=f.source)  # type: ignore[arg-type]
                     for f in duel.focuses if f.card is not None)  # every one entered by now (table: focus_revealed)
    sides = (owner_of(duel.challenger), owner_of(duel.challenged))
    totals = (base[0] + sum(r.focus for r in revealed if r.player == sides[0]),
              base[1] + sum(r.focus for r in revealed if r.player == sides[1]))
    winner: str | None
    losers: tuple[str, ...]
    if totals[0] == totals[1]:
        winner, losers = None, (duel.challenger, duel.challenged)  # §5.3: equal totals, both lose
    elif totals[0] > totals[1]:
        winner, losers = duel.challenger, (duel.challenged,)
    else:
        winner, losers = duel.challenged, (duel.challenger,)
    destroyed = tuple(x for x in losers if s.in_play(x) is not None) if duel.destroy_loser else ()
    # R7: each survivor is returned to its owner's home: out of its army when the duel was fought in a battle
    returned = tuple(x for x in (duel.challenger, duel.challenged) if x not in destroyed and s.army_of(x) is not None)
    b.emit(DuelResolved(challenger=duel.challenger, challenged=duel.challenged, base=base, totals=totals,
                        revealed=revealed, winner=winner, losers=losers, destroyed=destroyed,
                        returned_home=returned))
    _honor_losses(b, s, destroyed)


def _discard_dynasty(b: Builder, action: L5RAction) -> None:
    assert isinstance(action, DiscardDynasty)
    s = b.state
    p = s.player(action.player)
    if p.dynasty_discarded:
        raise refuse("one_dynasty_discard", "§3.3", f"{action.player} has discarded a province card this turn "
                     "already")
    province = next((pr for pr in p.provinces if pr.number == action.province), None)
    if province is None or province.card is None or not province.face_up:
        raise refuse("nothing_to_discard", "§3.3", f"{action.player} has no face-up card in province "
                     f"{action.province}")
    b.emit(DynastyDiscarded(player=action.player, province=action.province, card=province.card))
    _refilled(b, action.player, action.province)


def _refilled(b: Builder, seat: str, province: int) -> None:
    """R9: a province emptied whose refill finds the dynasty deck empty draws nothing, recorded."""
    if not any(x.player == seat and x.dest == "province" and x.province == province for x in b.state.pending):
        b.emit(NothingDrawn(player=seat, deck="dynasty", province=province))


def _discard(b: Builder, action: L5RAction) -> None:
    book = b.book
    assert isinstance(action, Discard)
    p = b.state.player(action.player)
    if action.card not in p.hand:
        raise refuse("not_in_hand", "§3.4", f"{_named(book, action.card)} is not in {action.player}'s hand")
    b.emit(CardDiscarded(player=action.player, card=action.card))


# -- what the procedures do by themselves -------------------------------------------------------------------------


def advance(b: Builder) -> None:  # noqa: C901 - one step per procedure
    """Every event the procedures cause until the game awaits a player again (or ends)."""
    while True:
        s = b.state
        if s.phase == "over":
            return
        if _eliminations(b):
            continue
        if s.pending:
            pending = s.pending[0]
            if s.mode == "table":
                if pending.dest == "province":  # laid face down unseen: entered when it turns face up (item 17)
                    b.emit(ProvinceFilled(player=pending.player, province=pending.province, card=None,
                                          source="unseen"))
                    continue
                return
            p = s.player(pending.player)
            if pending.dest == "hand":
                b.emit(CardDrawn(player=p.id, card=top(s, p.id, "fate"), source="prng"))
            else:
                b.emit(ProvinceFilled(player=p.id, province=pending.province, card=top(s, p.id, "dynasty"),
                                      source="prng"))
            continue
        if s.duel is not None:
            if s.duel.next is None:
                _resolve_duel(b)
                continue
            return
        if s.phase == "start":
            _start_turn(b)
            continue
        if s.phase in ("action", "attack") and s.closed:
            b.emit(PhaseStarted(player=s.active, phase="attack" if s.phase == "action" else "dynasty"))
            continue
        if s.phase == "battle":
            if s.closed:
                b.emit(PhaseStarted(player=s.active, phase="dynasty"))
                continue
            if s.segment == "over":
                returned = tuple(u for a in s.armies if a.side == "defender" for u in a.units)
                b.emit(AttackEnded(player=s.active, returned=returned))
                continue
            field = s.battlefields[s.battle]
            empty = not army_at(s, "attacker", field) and not army_at(s, "defender", field)
            if s.segment == "resolve" or (s.segment == "engage" and empty and s.passes == 0 and not s.acted):
                _resolve_battle(b)
                continue
            return
        if s.phase == "dynasty" and s.closed:
            b.emit(PhaseStarted(player=s.active, phase="end"))
            if not any(x.player == s.active and x.dest == "hand" for x in b.state.pending):
                b.emit(NothingDrawn(player=s.active, deck="fate"))  # R9: the fate deck is empty; play goes on
            continue
        if s.phase == "end":
            if len(s.player(s.active).hand) > HAND_LIMIT:
                return
            b.emit(TurnEnded(player=s.active, next=_next_seat(s)))
            continue
        return


def _next_seat(s: State) -> str:
    i = s.order.index(s.active)
    for step in range(1, len(s.order) + 1):
        seat = s.order[(i + step) % len(s.order)]
        if not s.player(seat).eliminated:
            return seat
    return s.active


def _start_turn(b: Builder) -> None:
    card_of = b.book.card
    s = b.state
    p = s.player(s.active)
    if p.honor >= HONOR_VICTORY:  # §6: at the start of your turn
        b.emit(GameEnded(winner=p.id, reason="honor", honor=tuple(q.honor for q in s.players)))
        return
    straightened = ((p.stronghold,) if p.stronghold_bowed else ()) + tuple(c.id for c in p.cards if c.bowed)
    b.emit(TurnStarted(player=p.id, turn=s.turn + 1, straightened=straightened))
    hidden = [pr for pr in p.provinces if pr.card is not None and not pr.face_up]
    if hidden:
        cards = tuple(Revealed(province=pr.number, card=pr.card or "") for pr in hidden)
        events = tuple(r.card for r in cards if card_of(r.card).kind == "event")
        b.emit(CardsRevealed(player=p.id, cards=cards, discarded=events))
        for r in cards:
            if r.card in events:
                _refilled(b, p.id, r.province)


def _resolve_battle(b: Builder) -> None:  # noqa: C901 - §4 in order
    card_of = b.book.card
    s = b.state
    field = s.battlefields[s.battle]
    attacker, defender = s.active, s.defender or s.other(s.active)
    att, dfn = army_at(s, "attacker", field), army_at(s, "defender", field)
    a_force, d_force = army_force(s, att), army_force(s, dfn)
    strength = province_strength(s, defender, field)
    winner: str | None
    if a_force > d_force:
        winner = "attacker"
    elif d_force > a_force:
        winner = "defender"
    else:
        winner = "tie" if att and dfn else None
    destroyed: list[str] = []
    gains: dict[str, int] = {}
    province_destroyed = False
    if winner == "attacker":
        province_destroyed = a_force > d_force + strength
        lost = army_cards(s, dfn)
        destroyed += lost
        gains[attacker] = 2 * len(lost)
    elif winner == "defender":
        lost = army_cards(s, att)
        destroyed += lost
        gains[defender] = 2 * len(lost)
    elif winner == "tie":
        lost_d, lost_a = army_cards(s, dfn), army_cards(s, att)
        destroyed += lost_d + lost_a
        gains[attacker], gains[defender] = len(lost_d), len(lost_a)
    restored: list[str] = []
    for seat, units in ((attacker, att), (defender, dfn)):
        if gains.get(seat):
            dishonored = [u for u in units if (c := s.in_play(u)) is not None and c.dishonored]
            if dishonored:  # a dishonoured army gaining honour is restored instead (§4)
                restored += dishonored
                gains[seat] = 0
    honor: list[HonorChange] = [HonorChange(player=seat, amount=n) for seat, n in gains.items() if n]
    for inst in destroyed:
        c = s.in_play(inst)
        if c is not None and c.dishonored and inst not in restored and card_of(inst).kind == "personality":
            honor.append(HonorChange(player=owner_of(inst), amount=-honor_of(s, inst)))
    province = next((pr for pr in s.player(defender).provinces if pr.number == field), None)
    # an unseen card (table mode) is entered as it is discarded: a "discard" entry follows (state)
    discarded = (province.card,) if province_destroyed and province and province.card else ()
    survivors = [u for u in att if u not in destroyed]
    returned = tuple(x for x in army_cards(s, survivors))
    b.emit(BattleResolved(battlefield=field, attacker=attacker, defender=defender, attacker_force=a_force,
                          defender_force=d_force, province_strength=strength, winner=winner,  # type: ignore[arg-type]
                          province_destroyed=province_destroyed, destroyed=tuple(destroyed),
                          discarded=discarded, honor=tuple(honor), restored=tuple(restored),
                          returned_bowed=returned))
    for change in honor:
        reason = "battle" if change.amount > 0 else "dishonored_destroyed"
        _honor(b, change.player, change.amount, reason)


def _eliminations(b: Builder) -> bool:
    """§6: a player with no province left or family honour -20 or lower is eliminated (a card that says so: R9, its
    ``effect``); the last one standing wins (R3: players eliminated at once leave the turn player the winner)."""
    s = b.state
    out = [p for p in s.players if not p.eliminated and (p.honor <= HONOR_ELIMINATION or not p.provinces)]
    for p in out:
        b.emit(PlayerEliminated(player=p.id, reason="honor" if p.honor <= HONOR_ELIMINATION else "provinces"))
    standing = [p.id for p in b.state.players if not p.eliminated]
    if len(standing) > 1:
        return bool(out)
    winner = standing[0] if standing else s.active
    b.emit(GameEnded(winner=winner, reason="military", honor=tuple(p.honor for p in b.state.players)))
    return True


def opening(state: State) -> tuple[L5REvent, ...]:
    """What the procedures do after ``game_started``: sealed draws, the first turn's start."""
    b = Builder(state)
    advance(b)
    return tuple(b.events)


def is_stalled(state: State) -> bool:
    """R9: a whole round (one turn of each player still in the game) has ended in which no event but passes and
    empty draws happened (and the turn's own steps: ``engine.l5r.state.is_quiet``), all since the turn
    ``state.quiet_since``. A bot game in this state ends as a draw (``engine.play``, by adjudication)."""
    if state.phase in ("setup", "over"):
        return False
    played = state.turn if state.phase == "start" else state.turn - 1  # the turns that have ended
    return played - state.quiet_since >= sum(1 for p in state.players if not p.eliminated)


# -- legal actions ----------------------------------------------------------------------------------------------


def legal_actions(state: State, seat: str | None = None) -> list[L5RAction]:
    expected = awaited(state)
    if not expected:
        return []
    seat = expected[0] if seat is None else seat
    if seat not in expected:
        return []
    return list(_legal(state, seat))


def _legal(s: State, seat: str) -> Iterator[L5RAction]:  # noqa: C901 - one branch per window
    book = cards_of(s)
    card_of = book.card
    p = s.player(seat)
    if s.pending and s.mode == "table":
        for card in deck_cards(unseen_pool(s, s.pending[0])):
            yield Draw(player=seat, card=card)
        return
    if s.duel is not None:
        if focus_count(s.duel, seat) < MAX_FOCUS:
            for inst in p.hand:
                yield Focus(player=seat, source="hand", card=inst)
            if fate_left(s, seat) > 0:
                yield Focus(player=seat, source="deck")
        yield Strike(player=seat)
        return
    phase = s.phase
    if phase == "end":
        for inst in p.hand:
            yield Discard(player=seat, card=inst)
        return
    if phase == "attack":
        yield Attack(player=seat)
        yield Pass(player=seat)
        return
    if phase == "maneuvers":
        yield Pass(player=seat)
        side = "defender" if seat == s.defender else "attacker"
        free = sorted(available_units(s, seat))
        for size in range(1, len(free) + 1):
            for units in combinations(free, size):
                for field in s.battlefields:
                    if not army_at(s, side, field):
                        yield Army(player=seat, battlefield=field, units=units)
        return
    yield Pass(player=seat)
    if phase in ("action", "battle", "dynasty"):
        for source in gold_sources(book, p):
            yield Produce(player=seat, card=source)
    if phase in ("action", "battle"):
        for inst in p.hand:
            c = card_of(inst)
            if c.kind == "strategy" and p.gold >= c.cost:
                yield PlayStrategy(player=seat, card=inst)
        yield from _challenges(s, seat)
    if phase == "action":
        elements = _rings(book, p)
        for inst in p.hand:
            c = card_of(inst)
            if c.kind == "ring" and c.element not in elements:
                yield PlayRing(player=seat, card=inst)
            if c.attachment and p.gold >= c.cost:
                for person in personalities(book, p):
                    if c.kind != "spell" or card_of(person.id).shugenja:
                        yield Attach(player=seat, card=inst, to=person.id)
    if phase == "dynasty":
        for pr in p.provinces:
            if pr.card is None or not pr.face_up:
                continue
            c = card_of(pr.card)
            if c.kind in ("personality", "holding") and p.gold >= recruit_cost(book, p, pr.card)[0] and \
                    (c.kind != "personality" or p.honor >= c.honor_req):
                yield Recruit(player=seat, province=pr.number)
                if c.kind == "personality" and c.clan == p.clan and not p.proclaimed:
                    yield Recruit(player=seat, province=pr.number, proclaim=True)
        if not p.dynasty_discarded:
            for pr in p.provinces:
                if pr.card is not None and pr.face_up:
                    yield DiscardDynasty(player=seat, province=pr.number)


def _challenges(s: State, seat: str) -> Iterator[Challenge]:
    book = cards_of(s)
    other = s.other(seat)
    field = current_field(s)
    here = None if field is None else set(army_at(s, "attacker", field)) | set(army_at(s, "defender", field))
    mine = [c.id for c in personalities(book, s.player(seat)) if here is None or c.id in here]  # bowed too (R8)
    theirs = [c.id for c in personalities(book, s.player(other)) if here is None or c.id in here]
    for a in mine:
        for d in theirs:
            yield Challenge(player=seat, challenger=a, challenged=d)


__all__ = ["HAND_LIMIT", "HONOR_ELIMINATION", "HONOR_VICTORY", "Builder", "advance", "army_cards", "army_force",
           "available_units", "chi_of", "continues_action", "decide", "duel_base", "force_of", "gold_sources",
           "is_stalled", "legal_actions", "opening", "province_strength", "recruit_cost", "unit_force", "unseen_pool"]
