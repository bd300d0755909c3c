"""The state of a HeroScape game, ``evolve`` (trusts its events, never re-runs a rule) and ``fold``.

A frozen msgspec Struct of tuples. Figures are a tuple of frozen ``Figure``; seats are indexed 0 (p1) and 1 (p2).
The dice the game awaits are a queue (``due``): each ``dice_rolled`` takes the first; in sealed mode ``decide``
draws them at once from the generator whose state (``rng``) lives here, in table mode the seats enter them. The
map is the game's own (``game_started.board``); ``board_of`` turns it into the geometry's ``Board`` once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

import msgspec

from engine.heroscape.geometry import Board, Cell, Hex
from engine.prng import MASK64
from events import Adjudication
from events.heroscape import (
    ArmyPlaced,
    ArmyRecord,
    AttackDeclared,
    AttackResolved,
    BoardRecord,
    CardRecord,
    ChargeResolved,
    Conceded,
    DiceRolled,
    EffectApplied,
    FigureDestroyed,
    FigureMoved,
    FigureWounded,
    GameEnded,
    GameStarted,
    GlyphTaken,
    HeroScapeEvent,
    InitiativeTied,
    InitiativeWon,
    MarkerRevealed,
    MarkersPlaced,
    MoveDeclared,
    RoundEnded,
    SeatRecord,
    TurnEnded,
    TurnLost,
    Variant,
)

GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's step: one per die drawn
PLAYERS = ("p1", "p2")
INDEX = {"p1": 0, "p2": 1}
MARKERS = ("1", "2", "3", "X")
TURNS_PER_ROUND = 3


class Figure(msgspec.Struct, frozen=True, kw_only=True):
    owner: int
    id: str
    card: str
    hex: Hex | None = None
    tail: Hex | None = None  # a double-space figure's second hex
    wounds: int = 0
    status: str = "reserve"  # reserve (not placed) | placed | destroyed
    moved: bool = False  # moved in this turn's current move (a Berserker Charge lets it move again)
    attacked: bool = False  # made its normal attack this turn
    extra: bool = False  # made its extra special attack this turn (§7)


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """Dice the game awaits: ``count`` dice of ``die`` from ``player`` (``figure`` rolls them)."""

    purpose: str  # initiative | attack | defense | leaving | falling
    player: str
    die: str  # d20 | combat
    count: int
    figure: str | None = None


class State(msgspec.Struct, frozen=True, kw_only=True):
    seq: int = 0
    phase: str = "setup"  # setup | placement | markers | initiative | turn | over
    seats: tuple[SeatRecord, ...] = ()
    variant: Variant = Variant()
    armies: tuple[ArmyRecord, ...] = ()
    board: BoardRecord | None = None
    seed: int | None = None
    rng: int = 0
    figures: tuple[Figure, ...] = ()
    placed: tuple[bool, ...] = (False, False)
    round: int = 0
    markers: tuple[tuple[tuple[str, str], ...] | None, ...] = (None, None)  # per seat: (marker, card) pairs
    order: tuple[str, ...] = ()  # this round's turn order (§2)
    contenders: tuple[str, ...] = ()  # seats rolling for initiative now
    rolls: tuple[tuple[str, int], ...] = ()  # this initiative round's d20s
    turn_index: int = -1  # 0 .. 3 x seats - 1 within the round
    active: int | None = None
    number: int = 0  # the marker of this turn (1, 2, 3)
    card: str | None = None  # the revealed card of this turn
    attacking: bool = False  # an attack was made this turn: the figures move no more
    charge_ready: bool = False  # a berserker figure moved since the last charge roll
    due: tuple[Due, ...] = ()
    attack: AttackDeclared | None = None  # the attack whose dice are rolled
    attack_values: tuple[int, ...] = ()
    targets_done: int = 0
    moving: MoveDeclared | None = None  # the move under way (its strikes and fall)
    attacks: int = 0
    used_glyphs: tuple[Hex, ...] = ()  # power glyphs used up (Kelda)
    specials_used: tuple[str, ...] = ()  # "p1:airborne-elite:grenade": once-a-game specials spent
    points: tuple[int, ...] = (0, 0)
    end_reason: str | None = None
    winner: str | None = None
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)


def initial_state() -> State:
    return State()


# -- the map ------------------------------------------------------------------------------------------------

_BOARDS: dict[int, tuple[BoardRecord, Board]] = {}


def board_of(record: BoardRecord) -> Board:
    """The geometry's ``Board`` of a game's map, built once per record object."""
    cached = _BOARDS.get(id(record))
    if cached is not None and cached[0] is record:
        return cached[1]
    cells = {(q, r): Cell(level, terrain, glyph) for q, r, level, terrain, glyph in record.cells}
    obstacles = {frozenset((tuple(a), tuple(b))): height for a, b, height in record.obstacles}
    board = Board(cells, obstacles)  # type: ignore[arg-type]
    if len(_BOARDS) > 64:
        _BOARDS.clear()
    _BOARDS[id(record)] = (record, board)
    return board


def board(state: State) -> Board:
    assert state.board is not None
    return board_of(state.board)


# -- lookups ------------------------------------------------------------------------------------------------


_CARDS: dict[int, tuple[tuple[ArmyRecord, ...], dict[tuple[int, str], CardRecord]]] = {}


def card_of(state: State, owner: int, key: str) -> CardRecord:
    """The card ``key`` of seat ``owner``'s army (KeyError if it has none), looked up once per game's armies."""
    armies = state.armies
    cached = _CARDS.get(id(armies))
    if cached is None or cached[0] is not armies:
        if len(_CARDS) > 64:
            _CARDS.clear()
        cached = (armies, {(i, c.key): c for i, a in enumerate(armies) for c in a.cards})
        _CARDS[id(armies)] = cached
    return cached[1][(owner, key)]


def figure_index(state: State, owner: int, figure: str) -> int:
    for i, f in enumerate(state.figures):
        if f.owner == owner and f.id == figure:
            return i
    return -1


def on_map(state: State) -> list[Figure]:
    return [f for f in state.figures if f.status == "placed"]


def hexes_of(f: Figure) -> tuple[Hex, ...]:
    if f.hex is None:
        return ()
    return (f.hex,) if f.tail is None else (f.hex, f.tail)


def occupant_at(state: State, h: Hex) -> Figure | None:
    for f in state.figures:
        if f.status == "placed" and (f.hex == h or f.tail == h):
            return f
    return None


def alive_cards(state: State, owner: int) -> list[str]:
    """The player's cards with a figure on the map, in army order."""
    keys = {f.card for f in state.figures if f.owner == owner and f.status == "placed"}
    return [c.key for c in state.armies[owner].cards if c.key in keys]


def points_on_map(state: State, owner: int) -> int:
    alive = set(alive_cards(state, owner))
    return sum(c.points for c in state.armies[owner].cards if c.key in alive)


def turn_player(state: State, index: int) -> tuple[str, int]:
    """The seat and marker number of the round's turn ``index`` (§2: three turns each, in initiative order)."""
    n = len(state.order)
    return state.order[index % n], index // n + 1


# -- evolve -------------------------------------------------------------------------------------------------


def _set(figures: tuple[Figure, ...], i: int, figure: Figure) -> tuple[Figure, ...]:
    return (*figures[:i], figure, *figures[i + 1 :])


def _replace(state: State, **changes: Any) -> State:
    return msgspec.structs.replace(state, seq=state.seq + 1, **changes)


def _figure_ids(card: CardRecord) -> list[str]:
    return [card.key] if card.figures == 1 else [f"{card.key}/{n}" for n in range(1, card.figures + 1)]


def _started(event: GameStarted) -> State:
    figures: list[Figure] = []
    for index, army in enumerate(event.armies):
        for card in army.cards:
            figures.extend(Figure(owner=index, id=fid, card=card.key) for fid in _figure_ids(card))
    state = State(seq=1, phase="placement", seats=event.seats, variant=event.variant, armies=event.armies,
                  board=event.board, seed=event.seed, rng=(event.seed or 0) & MASK64)
    position = event.position
    if position is None:
        return msgspec.structs.replace(state, figures=tuple(figures))
    where = {(INDEX[p.owner], p.figure): p for p in position.figures}
    placed = []
    for f in figures:
        p = where.get((f.owner, f.id))
        if p is None:
            placed.append(msgspec.structs.replace(f, status="destroyed"))
        else:
            placed.append(msgspec.structs.replace(f, hex=tuple(p.hex), tail=tuple(p.tail) if p.tail else None,
                                                  wounds=p.wounds, status="placed"))
    used = tuple(f"{player}:{s}" for player, spent in sorted(position.specials_used.items()) for s in spent)
    glyph_hexes = {glyph: (q, r) for q, r, _, _, glyph in event.board.cells if glyph}
    return msgspec.structs.replace(
        state, figures=tuple(placed), placed=(True, True), phase="markers", round=position.round,
        used_glyphs=tuple(glyph_hexes[g] for g in position.used if g in glyph_hexes), specials_used=used)


def _after_turn_flags(figures: tuple[Figure, ...]) -> tuple[Figure, ...]:
    return tuple(msgspec.structs.replace(f, moved=False, attacked=False, extra=False)
                 if f.moved or f.attacked or f.extra else f for f in figures)


def evolve(state: State, event: HeroScapeEvent) -> State:
    match event:
        case DiceRolled(source=source, values=values, player=player, purpose=purpose):
            rng = (state.rng + GAMMA * len(values)) & MASK64 if source == "prng" else state.rng
            if purpose == "berserker":
                return _replace(state, rng=rng)
            due = state.due[1:]
            if purpose == "initiative":
                return _replace(state, rng=rng, due=due, rolls=(*state.rolls, (player, values[0])))
            if purpose == "attack":
                return _replace(state, rng=rng, due=due, attack_values=values)
            if purpose == "defense":
                return _replace(state, rng=rng, due=due, targets_done=state.targets_done + 1)
            return _replace(state, rng=rng, due=due)
        case MarkerRevealed(player=player, number=number, card=card):
            return _replace(state, active=INDEX[player], number=number, card=card, attacking=False,
                            charge_ready=False, turn_index=state.turn_index + 1,
                            figures=_after_turn_flags(state.figures))
        case TurnEnded():
            return _replace(state, active=None, card=None, number=0, attacking=False, charge_ready=False,
                            figures=_after_turn_flags(state.figures))
        case MoveDeclared(strikers=strikers, player=player):
            other = PLAYERS[1 - INDEX[player]]
            due = tuple(Due(purpose="leaving", player=other, die="combat", count=1, figure=s) for s in strikers)
            return _replace(state, moving=event, due=due)
        case FigureMoved(player=player, figure=figure, to=to, tail=tail):
            owner = INDEX[player]
            i = figure_index(state, owner, figure)
            moved = msgspec.structs.replace(state.figures[i], hex=tuple(to), tail=tuple(tail) if tail else None,
                                            moved=True)
            berserker = "berserker-charge" in card_of(state, owner, moved.card).powers
            moving = state.moving
            due = state.due
            if moving is not None and moving.fall_dice:
                due = (Due(purpose="falling", player=player, die="combat", count=moving.fall_dice, figure=figure),)
            return _replace(state, figures=_set(state.figures, i, moved), due=due,
                            moving=moving if due else None,
                            charge_ready=state.charge_ready or berserker)
        case AttackResolved():
            done = state.targets_done >= len(state.attack.targets) if state.attack is not None else True
            if done:
                return _replace(state, attack=None, attack_values=(), targets_done=0)
            return _replace(state)
        case AttackDeclared(player=player, figure=figure, special=special, targets=targets):
            owner = INDEX[player]
            i = figure_index(state, owner, figure)
            f = state.figures[i]
            extra = False
            used = state.specials_used
            if special is not None:
                spec = next(s for s in card_of(state, owner, f.card).specials if s.name == special)
                extra = spec.extra
                if spec.once:
                    used = (*used, f"{player}:{f.card}:{special}")
            f = msgspec.structs.replace(f, extra=True) if extra else msgspec.structs.replace(f, attacked=True)
            due = (Due(purpose="attack", player=player, die="combat", count=event.dice, figure=figure),
                   *(Due(purpose="defense", player=t.player, die="combat", count=t.dice, figure=t.figure)
                     for t in targets))
            return _replace(state, figures=_set(state.figures, i, f), attack=event, attack_values=(),
                            targets_done=0, due=due, attacks=event.attack, attacking=True, specials_used=used)
        case MarkersPlaced(player=player, markers=markers):
            owner = INDEX[player]
            pairs = tuple(sorted(markers.items())) if markers is not None else ()
            new = tuple(pairs if i == owner else m for i, m in enumerate(state.markers))
            if all(m is not None for m in new[: len(state.seats)]):
                seats = tuple(s.id for s in state.seats)
                due = tuple(Due(purpose="initiative", player=p, die="d20", count=1) for p in seats)
                return _replace(state, markers=new, phase="initiative", contenders=seats, rolls=(), due=due)
            return _replace(state, markers=new)
        case FigureWounded(player=player, figure=figure, total=total):
            i = figure_index(state, INDEX[player], figure)
            return _replace(state, figures=_set(state.figures, i,
                                                msgspec.structs.replace(state.figures[i], wounds=total)))
        case FigureDestroyed(player=player, figure=figure):
            i = figure_index(state, INDEX[player], figure)
            gone = msgspec.structs.replace(state.figures[i], status="destroyed")
            moving = state.moving
            due = state.due
            if moving is not None and moving.player == player and moving.figure == figure:
                moving, due = None, ()  # destroyed on its way: its move and the dice still owed for it are over
            return _replace(state, figures=_set(state.figures, i, gone), moving=moving, due=due)
        case InitiativeWon(order=order):
            return _replace(state, order=order, contenders=(), rolls=(), phase="turn", turn_index=-1)
        case RoundEnded(round=number, points=points):
            return _replace(state, phase="markers", round=number + 1, markers=(None,) * len(state.seats), order=(),
                            turn_index=-1, points=tuple(points.get(p, 0) for p in PLAYERS[: len(state.seats)]))
        case ChargeResolved(player=player, card=card, again=again):
            owner = INDEX[player]
            charged = state.figures
            if again:
                charged = tuple(msgspec.structs.replace(f, moved=False) if f.owner == owner and f.card == card
                                else f for f in charged)
            return _replace(state, figures=charged, charge_ready=False)
        case GameStarted():
            return _started(event)
        case ArmyPlaced(player=player, placements=placements):
            owner = INDEX[player]
            figures = list(state.figures)
            for p in placements:
                i = figure_index(state, owner, p.figure)
                figures[i] = msgspec.structs.replace(figures[i], hex=tuple(p.hex),
                                                     tail=tuple(p.tail) if p.tail else None, status="placed")
            placed = tuple(True if i == owner else v for i, v in enumerate(state.placed))
            phase = "markers" if all(placed) else "placement"
            return _replace(state, figures=tuple(figures), placed=placed, phase=phase,
                            round=1 if phase == "markers" else state.round)
        case InitiativeTied(contenders=contenders):
            due = tuple(Due(purpose="initiative", player=p, die="d20", count=1) for p in contenders)
            return _replace(state, contenders=contenders, rolls=(), due=due)
        case TurnLost():
            return _replace(state)
        case GlyphTaken(player=player, figure=figure, hex=h):
            i = figure_index(state, INDEX[player], figure)
            healed = msgspec.structs.replace(state.figures[i], wounds=0)
            return _replace(state, figures=_set(state.figures, i, healed), used_glyphs=(*state.used_glyphs, tuple(h)))
        case EffectApplied(change=change, figure=figure, owner=owner, amount=amount, to=to, tail=tail):
            i = figure_index(state, INDEX[owner], figure)
            f = state.figures[i]
            if change == "heal":
                f = msgspec.structs.replace(f, wounds=max(0, f.wounds - amount))
            elif change == "move":
                assert to is not None
                f = msgspec.structs.replace(f, hex=tuple(to), tail=tuple(tail) if tail else None)
            else:  # wound and destroy are followed by figure_wounded / figure_destroyed
                return _replace(state)
            return _replace(state, figures=_set(state.figures, i, f))
        case Conceded():
            return _replace(state)
        case GameEnded(reason=reason, winner=winner, points=points):
            return _replace(state, phase="over", end_reason=reason, winner=winner, due=(), attack=None, moving=None,
                            points=tuple(points.get(p, 0) for p in PLAYERS[: len(state.seats)]),
                            adjudication=event.adjudication)
        case _:
            assert_never(event)


# -- fold: many events on one working copy ------------------------------------------------------------------
#
# ``evolve`` builds a new frozen State per event (a replace of ~40 fields and a new tuple of figures): right for one
# step (the cursor, the live service, decide), too slow to refold whole games. ``fold`` thaws the state once into a
# mutable working copy, applies the every-turn events in place and freezes once at the end; the rare events (the
# start, placement, a tied initiative, lost turns, glyphs, effects, the end) go through ``evolve`` itself. These
# in-place paths repeat those events' meaning; the conformance suite holds ``fold`` of every prefix of bot games
# equal to the ``evolve`` loop.

_FIELDS = tuple(State.__struct_fields__)
_F_OWNER, _F_ID, _F_CARD, _F_HEX, _F_TAIL, _F_WOUNDS, _F_STATUS, _F_MOVED, _F_ATTACKED, _F_EXTRA = range(10)


class _Work:
    """A State's fields, mutable; ``figures`` as lists in ``Figure``'s field order, ``index`` by (owner, id)."""

    __slots__ = (*_FIELDS, "index")

    def __init__(self, state: State) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(state, name))
        self.figures: list[list[Any]] = [[f.owner, f.id, f.card, f.hex, f.tail, f.wounds, f.status, f.moved,
                                          f.attacked, f.extra] for f in state.figures]
        self.index: dict[tuple[int, str], list[Any]] = {(f[0], f[1]): f for f in self.figures}

    def freeze(self) -> State:
        fields = {name: getattr(self, name) for name in _FIELDS}
        fields["figures"] = tuple(Figure(owner=f[0], id=f[1], card=f[2], hex=f[3], tail=f[4], wounds=f[5],
                                         status=f[6], moved=f[7], attacked=f[8], extra=f[9]) for f in self.figures)
        return State(**fields)


def _clear_turn_flags(w: Any) -> None:
    for f in w.figures:
        if f[_F_MOVED] or f[_F_ATTACKED] or f[_F_EXTRA]:
            f[_F_MOVED] = f[_F_ATTACKED] = f[_F_EXTRA] = False


def _work_dice(w: Any, e: DiceRolled) -> None:
    if e.source == "prng":
        w.rng = (w.rng + GAMMA * len(e.values)) & MASK64
    if e.purpose == "berserker":
        return
    w.due = w.due[1:]
    if e.purpose == "initiative":
        w.rolls = (*w.rolls, (e.player, e.values[0]))
    elif e.purpose == "attack":
        w.attack_values = e.values
    elif e.purpose == "defense":
        w.targets_done += 1


def _work_revealed(w: Any, e: MarkerRevealed) -> None:
    w.active, w.number, w.card, w.attacking, w.charge_ready = INDEX[e.player], e.number, e.card, False, False
    w.turn_index += 1
    _clear_turn_flags(w)


def _work_turn_ended(w: Any, e: TurnEnded) -> None:
    w.active, w.card, w.number, w.attacking, w.charge_ready = None, None, 0, False, False
    _clear_turn_flags(w)


def _work_move_declared(w: Any, e: MoveDeclared) -> None:
    other = PLAYERS[1 - INDEX[e.player]]
    w.moving = e
    w.due = tuple(Due(purpose="leaving", player=other, die="combat", count=1, figure=s) for s in e.strikers)


def _work_moved(w: Any, e: FigureMoved) -> None:
    owner = INDEX[e.player]
    f = w.index[(owner, e.figure)]
    f[_F_HEX], f[_F_TAIL], f[_F_MOVED] = tuple(e.to), tuple(e.tail) if e.tail else None, True
    berserker = "berserker-charge" in _card_in(w, owner, f[_F_CARD]).powers
    moving = w.moving
    if moving is not None and moving.fall_dice:
        w.due = (Due(purpose="falling", player=e.player, die="combat", count=moving.fall_dice, figure=e.figure),)
    w.moving = moving if w.due else None
    w.charge_ready = w.charge_ready or berserker


def _card_in(w: Any, owner: int, key: str) -> CardRecord:
    for c in w.armies[owner].cards:
        if c.key == key:
            return c  # type: ignore[no-any-return]
    raise KeyError(key)


def _work_wounded(w: Any, e: FigureWounded) -> None:
    w.index[(INDEX[e.player], e.figure)][_F_WOUNDS] = e.total


def _work_destroyed(w: Any, e: FigureDestroyed) -> None:
    w.index[(INDEX[e.player], e.figure)][_F_STATUS] = "destroyed"
    moving = w.moving
    if moving is not None and moving.player == e.player and moving.figure == e.figure:
        w.moving, w.due = None, ()


def _work_charge(w: Any, e: ChargeResolved) -> None:
    if e.again:
        owner = INDEX[e.player]
        for f in w.figures:
            if f[_F_OWNER] == owner and f[_F_CARD] == e.card:
                f[_F_MOVED] = False
    w.charge_ready = False


def _work_attack_declared(w: Any, e: AttackDeclared) -> None:
    owner = INDEX[e.player]
    f = w.index[(owner, e.figure)]
    extra = False
    if e.special is not None:
        spec = next(s for s in _card_in(w, owner, f[_F_CARD]).specials if s.name == e.special)
        extra = spec.extra
        if spec.once:
            w.specials_used = (*w.specials_used, f"{e.player}:{f[_F_CARD]}:{e.special}")
    if extra:
        f[_F_EXTRA] = True
    else:
        f[_F_ATTACKED] = True
    w.due = (Due(purpose="attack", player=e.player, die="combat", count=e.dice, figure=e.figure),
             *(Due(purpose="defense", player=t.player, die="combat", count=t.dice, figure=t.figure)
               for t in e.targets))
    w.attack, w.attack_values, w.targets_done, w.attacks, w.attacking = e, (), 0, e.attack, True


def _work_resolved(w: Any, e: AttackResolved) -> None:
    if w.attack is None or w.targets_done >= len(w.attack.targets):
        w.attack, w.attack_values, w.targets_done = None, (), 0


def _work_markers(w: Any, e: MarkersPlaced) -> None:
    owner = INDEX[e.player]
    pairs = tuple(sorted(e.markers.items())) if e.markers is not None else ()
    w.markers = tuple(pairs if i == owner else m for i, m in enumerate(w.markers))
    if all(m is not None for m in w.markers[: len(w.seats)]):
        seats = tuple(s.id for s in w.seats)
        w.phase, w.contenders, w.rolls = "initiative", seats, ()
        w.due = tuple(Due(purpose="initiative", player=p, die="d20", count=1) for p in seats)


def _work_initiative(w: Any, e: InitiativeWon) -> None:
    w.order, w.contenders, w.rolls, w.phase, w.turn_index = e.order, (), (), "turn", -1


def _work_round(w: Any, e: RoundEnded) -> None:
    w.phase, w.round, w.markers, w.order, w.turn_index = "markers", e.round + 1, (None,) * len(w.seats), (), -1
    w.points = tuple(e.points.get(p, 0) for p in PLAYERS[: len(w.seats)])


def _work_placed(w: Any, e: ArmyPlaced) -> None:
    owner = INDEX[e.player]
    for p in e.placements:
        f = w.index[(owner, p.figure)]
        f[_F_HEX], f[_F_TAIL], f[_F_STATUS] = tuple(p.hex), tuple(p.tail) if p.tail else None, "placed"
    w.placed = tuple(True if i == owner else v for i, v in enumerate(w.placed))
    if all(w.placed):
        w.phase, w.round = "markers", 1


def _work_tied(w: Any, e: InitiativeTied) -> None:
    w.contenders, w.rolls = e.contenders, ()
    w.due = tuple(Due(purpose="initiative", player=p, die="d20", count=1) for p in e.contenders)


def _work_nothing(w: Any, e: Any) -> None:
    return None


def _work_ended(w: Any, e: GameEnded) -> None:
    w.phase, w.end_reason, w.winner, w.due, w.attack, w.moving = "over", e.reason, e.winner, (), None, None
    w.points = tuple(e.points.get(p, 0) for p in PLAYERS[: len(w.seats)])
    w.adjudication = e.adjudication


_IN_PLACE: dict[type, Any] = {
    ArmyPlaced: _work_placed, InitiativeTied: _work_tied, TurnLost: _work_nothing, Conceded: _work_nothing,
    GameEnded: _work_ended,
    DiceRolled: _work_dice, MarkerRevealed: _work_revealed, TurnEnded: _work_turn_ended,
    MoveDeclared: _work_move_declared, FigureMoved: _work_moved, FigureWounded: _work_wounded,
    FigureDestroyed: _work_destroyed, ChargeResolved: _work_charge, AttackDeclared: _work_attack_declared,
    AttackResolved: _work_resolved, MarkersPlaced: _work_markers, InitiativeWon: _work_initiative,
    RoundEnded: _work_round,
}


def fold(events: Iterable[HeroScapeEvent], state: State | None = None) -> State:
    """``evolve`` over ``events`` from ``state`` (default ``initial_state()``); a long stream on one working copy."""
    state = initial_state() if state is None else state
    todo = events if isinstance(events, (list, tuple)) else list(events)
    if len(todo) < 8:  # thawing and freezing cost more than a few evolves
        for event in todo:
            state = evolve(state, event)
        return state
    start = 0
    if isinstance(todo[0], GameStarted):
        state, start = evolve(state, todo[0]), 1
    w: Any = _Work(state)
    for event in todo[start:] if start else todo:
        step = _IN_PLACE.get(type(event))
        if step is None:
            w = _Work(evolve(w.freeze(), event))
            continue
        step(w, event)
        w.seq += 1
    frozen: State = w.freeze()
    return frozen


def awaited(state: State) -> tuple[str, ...]:
    """The seats whose action the game awaits (``Seating.to_act``): the first dice due, else the phase's."""
    if state.phase in ("setup", "over"):
        return ()
    if state.due:
        return (state.due[0].player,)
    seats = tuple(s.id for s in state.seats)
    if state.phase == "placement":
        return tuple(p for i, p in enumerate(seats) if not state.placed[i])
    if state.phase == "markers":
        return tuple(p for i, p in enumerate(seats) if state.markers[i] is None)
    if state.phase == "turn":
        if state.active is not None:
            return (PLAYERS[state.active],)
        # between a turn's end (or the initiative) and the next marker's reveal, within one action's events
        if state.order and state.turn_index + 1 < TURNS_PER_ROUND * len(state.order):
            return (turn_player(state, state.turn_index + 1)[0],)
        return seats
    if state.phase == "initiative":  # the last d20 rolled, before the tie or the winner is recorded
        return state.contenders or seats
    return ()


def figure_json(state: State, f: Figure) -> dict[str, Any]:
    card = card_of(state, f.owner, f.card)
    return {"owner": PLAYERS[f.owner], "figure": f.id, "card": f.card, "name": card.name,
            "hex": list(f.hex) if f.hex else None, "tail": list(f.tail) if f.tail else None,
            "wounds": f.wounds, "life": card.life, "status": f.status, "moved": f.moved, "attacked": f.attacked}


def state_to_builtins(state: State) -> dict[str, Any]:
    """The state as plain JSON data (view ``all``): the shape docs/heroscape.md documents."""
    seats = [s.id for s in state.seats]
    rec = state.board
    return {
        "seq": state.seq,
        "phase": state.phase,
        "mode": state.variant.mode,
        "game": state.variant.game,
        "round": state.round,
        "max_rounds": state.variant.max_rounds,
        "to_act": list(awaited(state)),
        "active": PLAYERS[state.active] if state.active is not None else None,
        "turn": {"number": state.number, "card": state.card} if state.card is not None else None,
        "order": list(state.order),
        "seats": [{"id": s.id, "name": s.name} for s in state.seats],
        "map": {"name": rec.name, "cells": [list(c) for c in rec.cells],
                "obstacles": [[list(a), list(b), h] for a, b, h in rec.obstacles],
                "start_zones": {p: [list(h) for h in z] for p, z in rec.start_zones.items()},
                "used_glyphs": [list(h) for h in state.used_glyphs]} if rec is not None else None,
        "armies": {a.player: {"name": a.name, "points": a.points,
                              "cards": [msgspec.to_builtins(c) for c in a.cards]} for a in state.armies},
        "figures": [figure_json(state, f) for f in state.figures],
        "markers": {p: (dict(m) if m is not None else None) for p, m in zip(seats, state.markers, strict=False)},
        "initiative": {"contenders": list(state.contenders), "rolls": [list(r) for r in state.rolls]}
        if state.phase == "initiative" else None,
        "due": [msgspec.to_builtins(d) for d in state.due],
        "attack": {**msgspec.to_builtins(state.attack), "values": list(state.attack_values)}
        if state.attack is not None else None,
        "attacks": state.attacks,
        "specials_used": list(state.specials_used),
        "points": {p: points_on_map(state, i) for i, p in enumerate(seats)},
        "winner": (state.winner or "draw") if state.phase == "over" else None,
        "end_reason": state.end_reason,
        "adjudication": msgspec.to_builtins(state.adjudication) if state.adjudication is not None else None,
    }


__all__ = [
    "INDEX", "MARKERS", "PLAYERS", "TURNS_PER_ROUND", "Due", "Figure", "State", "alive_cards", "awaited", "board",
    "board_of", "card_of", "evolve", "figure_index", "figure_json", "fold", "hexes_of", "initial_state", "on_map",
    "occupant_at", "points_on_map", "state_to_builtins", "turn_player",
]
