"""The state of a HeroScape game and the meaning of each event: ``apply`` on a working state; ``evolve`` and ``fold``
derived from it (``engine.folding``: thaw, apply, freeze).

A frozen msgspec Struct of tuples. Figures are a tuple of frozen ``Figure``; seats are indexed 0 (p1) and 1 (p2).
The dice the game awaits are a queue (``due``): each ``dice_rolled`` takes the first; in sealed mode ``decide``
draws them at once from the generator whose state (``rng``) lives here, in table mode the seats enter them. The
map is the game's own (``game_started.board``); ``board_of`` turns it into the geometry's ``Board`` once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from msgspec import UnsetType

from engine.folding import Folding
from engine.heroscape.geometry import Board, Cell, Hex
from engine.prng import MASK64
from engine.steps import Steps
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


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """Dice the game awaits: ``count`` dice of ``die`` from ``player`` (``figure`` rolls them)."""

    purpose: str  # initiative | attack | defense | leaving | falling
    player: str
    die: str  # d20 | combat
    count: int
    figure: str | None = None


class State(msgspec.Struct, frozen=True):
    """Built by keyword anywhere but ``freeze``, which passes ``Work``'s fields by position."""

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
    # this turn's figures, by (seat, figure id): moved in the turn's current move (a Berserker Charge lets them move
    # again), made their normal attack, made their extra special attack (§7); a turn's start and end empty them
    moved: frozenset[tuple[int, str]] = frozenset()
    attacked: frozenset[tuple[int, str]] = frozenset()
    extra_attacked: frozenset[tuple[int, str]] = frozenset()
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
    catalogue: str | None = None  # the game's catalogue id (issue 30); None: the default (its cards and map: above)


NOBODY: frozenset[tuple[int, str]] = frozenset()


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


def board(state: Reading) -> Board:
    assert state.board is not None
    return board_of(state.board)


# -- lookups ------------------------------------------------------------------------------------------------


def figure_ids(card: CardRecord) -> list[str]:
    """The figures of a card: its key (a hero), else ``key/1`` .. ``key/n`` (a squad)."""
    return [card.key] if card.figures == 1 else [f"{card.key}/{n}" for n in range(1, card.figures + 1)]


class _Armies(msgspec.Struct, frozen=True):
    """What a game's armies fix for the whole game: the cards by (seat, key) and each figure's place in ``figures``
    by (seat, id) (the opening lays the figures out in army order and no event moves them)."""

    armies: tuple[ArmyRecord, ...]
    cards: dict[tuple[int, str], CardRecord]
    slots: dict[tuple[int, str], int]


_ARMIES: dict[int, _Armies] = {}


def _armies(armies: tuple[ArmyRecord, ...]) -> _Armies:
    """The lookups of a game's armies, built once per armies object."""
    cached = _ARMIES.get(id(armies))
    if cached is None or cached.armies is not armies:
        if len(_ARMIES) > 64:
            _ARMIES.clear()
        ids = [(i, fid) for i, army in enumerate(armies) for c in army.cards for fid in figure_ids(c)]
        cached = _Armies(armies, {(i, c.key): c for i, army in enumerate(armies) for c in army.cards},
                         {key: n for n, key in enumerate(ids)})
        _ARMIES[id(armies)] = cached
    return cached


def card_of(state: Reading, owner: int, key: str) -> CardRecord:
    """The card ``key`` of seat ``owner``'s army (KeyError if it has none)."""
    return _armies(state.armies).cards[(owner, key)]


def cards_of(state: Reading) -> Mapping[tuple[int, str], CardRecord]:
    """Every card of the game's armies by (seat, key): ``card_of``'s table, for a loop that reads many."""
    return _armies(state.armies).cards


def _slot(armies: tuple[ArmyRecord, ...], figures: Sequence[Figure], owner: int, figure: str) -> int:
    i = _armies(armies).slots.get((owner, figure), -1)
    if 0 <= i < len(figures) and figures[i].owner == owner and figures[i].id == figure:
        return i
    return next((n for n, f in enumerate(figures) if f.owner == owner and f.id == figure), -1)  # laid out otherwise


def figure_index(state: Reading, owner: int, figure: str) -> int:
    """The place of seat ``owner``'s figure ``figure`` in ``state.figures`` (-1: none)."""
    return _slot(state.armies, state.figures, owner, figure)


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


def alive_cards(state: Reading, owner: int) -> list[str]:
    """The player's cards with a figure on the map, in army order."""
    keys = {f.card for f in state.figures if f.owner == owner and f.status == "placed"}
    return [c.key for c in state.armies[owner].cards if c.key in keys]


def card_alive(state: Reading, owner: int, key: str) -> bool:
    """Whether seat ``owner``'s card ``key`` has a figure on the map (``key in alive_cards(state, owner)``)."""
    return any(f.card == key and f.owner == owner and f.status == "placed" for f in state.figures)


def seats_standing(state: Reading) -> list[int]:
    """The seats with a figure on the map (those whose ``alive_cards`` are some), in seat order."""
    placed = {f.owner for f in state.figures if f.status == "placed"}
    return [i for i in range(len(state.seats)) if i in placed]


def points_on_map(state: Reading, owner: int) -> int:
    alive = set(alive_cards(state, owner))
    return sum(c.points for c in state.armies[owner].cards if c.key in alive)


def turn_player(state: Reading, index: int) -> tuple[str, int]:
    """The seat and marker number of the round's turn ``index`` (§2: three turns each, in initiative order)."""
    n = len(state.order)
    return state.order[index % n], index // n + 1


# -- thaw, apply, freeze: one way to apply an event (engine.folding) ------------------------------------------


class Work(msgspec.Struct):
    """A ``State`` being worked on: its fields first, in its order, assignable, then what the game's armies fix.

    ``figures`` is a list whose items ``apply`` replaces (a ``Figure`` stays frozen: an event makes new only the
    figures it changes); every other field holds an immutable value (the map, the armies, tuples) shared with the
    State it was thawed from and replaced whole when an event changes it. So ``thaw`` copies one list of references
    and ``freeze`` makes one tuple of it."""

    seq: int
    phase: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    armies: tuple[ArmyRecord, ...]
    board: BoardRecord | None
    seed: int | None
    rng: int
    figures: list[Figure]
    placed: tuple[bool, ...]
    round: int
    markers: tuple[tuple[tuple[str, str], ...] | None, ...]
    order: tuple[str, ...]
    contenders: tuple[str, ...]
    rolls: tuple[tuple[str, int], ...]
    turn_index: int
    active: int | None
    number: int
    card: str | None
    attacking: bool
    charge_ready: bool
    moved: frozenset[tuple[int, str]]
    attacked: frozenset[tuple[int, str]]
    extra_attacked: frozenset[tuple[int, str]]
    due: tuple[Due, ...]
    attack: AttackDeclared | None
    attack_values: tuple[int, ...]
    targets_done: int
    moving: MoveDeclared | None
    attacks: int
    used_glyphs: tuple[Hex, ...]
    specials_used: tuple[str, ...]
    points: tuple[int, ...]
    end_reason: str | None
    winner: str | None
    adjudication: Adjudication | None
    catalogue: str | None
    # not in the State: the armies' lookups (read only, shared by every game of those armies)
    cards: Mapping[tuple[int, str], CardRecord]
    slots: Mapping[tuple[int, str], int]


Reading = State | Work
"""What the lookups above read: a ``State``, or a ``Work`` read (never written) in place of the state it holds (a
decision reads its working state without freezing it: ``engine.heroscape.rules.Decision``)."""

# thaw and freeze pass the fields by position: one call each, the cheap way to build a Struct of this many fields
_N = len(State.__struct_fields__)
assert Work.__struct_fields__[:_N] == State.__struct_fields__, "Work starts with State's fields in State's order"
_FIGURES = State.__struct_fields__.index("figures")


def thaw(state: State) -> Work:
    armies = _armies(state.armies)
    work = Work(*msgspec.structs.astuple(state) + (armies.cards, armies.slots))
    work.figures = list(state.figures)
    return work


def freeze(work: Work) -> State:
    fields = list(msgspec.structs.astuple(work)[:_N])
    fields[_FIGURES] = tuple(work.figures)
    return State(*fields)


STEPS: Steps[Work] = Steps("HeroScape")
on = STEPS.on


@on(DiceRolled)
def _dice_rolled(work: Work, event: DiceRolled) -> None:
    """A roll takes the first dice due (not a Berserker Charge's d20); prng steps the generator."""
    if event.source == "prng":
        work.rng = (work.rng + GAMMA * len(event.values)) & MASK64
    purpose = event.purpose
    if purpose != "berserker":
        work.due = work.due[1:]
        if purpose == "initiative":
            work.rolls = (*work.rolls, (event.player, event.values[0]))
        elif purpose == "attack":
            work.attack_values = event.values
        elif purpose == "defense":
            work.targets_done += 1


@on(MarkerRevealed)
def _marker_revealed(work: Work, event: MarkerRevealed) -> None:
    """A turn begins: no attack made yet, no charge to roll, every figure may act."""
    work.active, work.number, work.card = INDEX[event.player], event.number, event.card
    work.turn_index += 1
    work.attacking = work.charge_ready = False
    work.moved = work.attacked = work.extra_attacked = NOBODY


@on(TurnEnded)
def _turn_ended(work: Work, event: TurnEnded) -> None:
    work.active, work.number, work.card = None, 0, None
    work.attacking = work.charge_ready = False
    work.moved = work.attacked = work.extra_attacked = NOBODY


@on(MoveDeclared)
def _move_declared(work: Work, event: MoveDeclared) -> None:
    """The move under way: the leaving dice its strikers roll come first."""
    other = PLAYERS[1 - INDEX[event.player]]
    work.moving = event
    work.due = tuple([Due(purpose="leaving", player=other, die="combat", count=1, figure=s)
                      for s in event.strikers]) if event.strikers else ()


@on(AttackResolved)
def _attack_resolved(work: Work, event: AttackResolved) -> None:
    if work.attack is None or work.targets_done >= len(work.attack.targets):  # its last target's dice rolled
        work.attack, work.attack_values, work.targets_done = None, (), 0


@on(FigureWounded)
def _figure_wounded(work: Work, event: FigureWounded) -> None:
    i = work.slots[(INDEX[event.player], event.figure)]
    work.figures[i] = msgspec.structs.replace(work.figures[i], wounds=event.total)


@on(InitiativeWon)
def _initiative_won(work: Work, event: InitiativeWon) -> None:
    work.phase, work.order, work.contenders, work.rolls, work.turn_index = "turn", event.order, (), (), -1


@on(RoundEnded)
def _round_ended(work: Work, event: RoundEnded) -> None:
    work.phase, work.round, work.order, work.turn_index = "markers", event.round + 1, (), -1
    work.markers = (None,) * len(work.seats)
    work.points = _points(work, event.points)


@on(TurnLost)
def _turn_lost(work: Work, event: TurnLost) -> None:
    """The next turn is events of its own."""


@on(Conceded)
def _conceded(work: Work, event: Conceded) -> None:
    """The end is events of its own."""


@on(GameEnded)
def _game_ended(work: Work, event: GameEnded) -> None:
    work.phase, work.end_reason, work.winner = "over", event.reason, event.winner
    work.due, work.attack, work.moving = (), None, None
    work.points = _points(work, event.points)
    work.adjudication = event.adjudication


@on(GlyphTaken)
def _glyph_taken(work: Work, event: GlyphTaken) -> None:
    i = work.slots[(INDEX[event.player], event.figure)]
    work.figures[i] = msgspec.structs.replace(work.figures[i], wounds=0)
    work.used_glyphs = (*work.used_glyphs, event.hex)


@on(InitiativeTied)
def _initiative_tied(work: Work, event: InitiativeTied) -> None:
    work.contenders, work.rolls = event.contenders, ()
    work.due = tuple(Due(purpose="initiative", player=p, die="d20", count=1) for p in event.contenders)


# -- the opening and the placement (§1) --


@on(GameStarted)
def _game_started(work: Work, event: GameStarted) -> None:
    """Every field anew but the count of events (``seq``: engine.steps keeps it), the armies' figures in reserve, or
    where the starting position puts them (then the markers of the position's round come next)."""
    figures = [Figure(owner=index, id=fid, card=card.key)
               for index, army in enumerate(event.armies) for card in army.cards for fid in figure_ids(card)]
    state = State(seq=work.seq, phase="placement", seats=event.seats, variant=event.variant, armies=event.armies,
                  board=event.board, seed=event.seed, rng=(event.seed or 0) & MASK64, figures=tuple(figures),
                  catalogue=None if isinstance(event.catalogue_id, UnsetType) else event.catalogue_id)
    position = event.position
    if position is not None:
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
        state = msgspec.structs.replace(
            state, figures=tuple(placed), placed=(True, True), phase="markers", round=position.round,
            used_glyphs=tuple(glyph_hexes[g] for g in position.used if g in glyph_hexes), specials_used=used)
    for name, value in zip(Work.__struct_fields__, msgspec.structs.astuple(thaw(state)), strict=True):
        setattr(work, name, value)


@on(ArmyPlaced)
def _army_placed(work: Work, event: ArmyPlaced) -> None:
    owner = INDEX[event.player]
    figures = work.figures
    for p in event.placements:
        i = work.slots[(owner, p.figure)]
        figures[i] = msgspec.structs.replace(figures[i], hex=tuple(p.hex), tail=tuple(p.tail) if p.tail else None,
                                             status="placed")
    work.placed = tuple(True if i == owner else v for i, v in enumerate(work.placed))
    if all(work.placed):
        work.phase, work.round = "markers", 1


# -- the round: markers, initiative, turns (§2) --


@on(MarkersPlaced)
def _markers_placed(work: Work, event: MarkersPlaced) -> None:
    owner = INDEX[event.player]
    pairs = tuple(sorted(event.markers.items())) if event.markers is not None else ()
    markers = list(work.markers)
    markers[owner] = pairs
    work.markers = tuple(markers)
    if None not in markers[: len(work.seats)]:  # the last seat's markers: initiative is rolled
        seats = tuple([s.id for s in work.seats])
        work.phase, work.contenders, work.rolls = "initiative", seats, ()
        work.due = tuple([Due(purpose="initiative", player=p, die="d20", count=1) for p in seats])


def _points(work: Work, points: Mapping[str, int]) -> tuple[int, ...]:
    return tuple([points.get(p, 0) for p in PLAYERS[: len(work.seats)]])


# -- movement (§3, §4, §6) --


@on(FigureMoved)
def _figure_moved(work: Work, event: FigureMoved) -> None:
    owner = INDEX[event.player]
    i = work.slots[(owner, event.figure)]
    f = work.figures[i] = msgspec.structs.replace(work.figures[i], hex=tuple(event.to),
                                                  tail=tuple(event.tail) if event.tail else None)
    work.moved = work.moved | {(owner, event.figure)}
    moving = work.moving
    if moving is not None and moving.fall_dice:  # it fell on its way down: the falling dice come next
        work.due = (Due(purpose="falling", player=event.player, die="combat", count=moving.fall_dice,
                        figure=event.figure),)
    if not work.due:
        work.moving = None
    if "berserker-charge" in work.cards[(owner, f.card)].powers:
        work.charge_ready = True


@on(ChargeResolved)
def _charge_resolved(work: Work, event: ChargeResolved) -> None:
    """A Berserker Charge rolled: on a success the card's figures may move again."""
    work.charge_ready = False
    if event.again:
        owner, figures, slots = INDEX[event.player], work.figures, work.slots
        work.moved = frozenset(key for key in work.moved if key[0] != owner or figures[slots[key]].card != event.card)


# -- dice and combat (§5, §7) --


@on(AttackDeclared)
def _attack_declared(work: Work, event: AttackDeclared) -> None:
    owner = INDEX[event.player]
    i = work.slots[(owner, event.figure)]
    f = work.figures[i]
    extra = False
    if event.special is not None:
        spec = next(s for s in work.cards[(owner, f.card)].specials if s.name == event.special)
        extra = spec.extra
        if spec.once:
            work.specials_used = (*work.specials_used, f"{event.player}:{f.card}:{event.special}")
    if extra:
        work.extra_attacked = work.extra_attacked | {(owner, f.id)}
    else:
        work.attacked = work.attacked | {(owner, f.id)}
    work.due = (Due(purpose="attack", player=event.player, die="combat", count=event.dice, figure=event.figure),
                *[Due(purpose="defense", player=t.player, die="combat", count=t.dice, figure=t.figure)
                  for t in event.targets])
    work.attack, work.attack_values, work.targets_done = event, (), 0
    work.attacks, work.attacking = event.attack, True


@on(FigureDestroyed)
def _figure_destroyed(work: Work, event: FigureDestroyed) -> None:
    i = work.slots[(INDEX[event.player], event.figure)]
    work.figures[i] = msgspec.structs.replace(work.figures[i], status="destroyed")
    moving = work.moving
    if moving is not None and moving.player == event.player and moving.figure == event.figure:
        work.moving, work.due = None, ()  # destroyed on its way: its move and the dice still owed for it are over


@on(EffectApplied)
def _effect_applied(work: Work, event: EffectApplied) -> None:
    """A card's effect entered at the table (§7): heal and move change the figure here; wound and destroy are
    followed by ``figure_wounded`` / ``figure_destroyed``."""
    if event.change not in ("heal", "move"):
        return
    i = work.slots[(INDEX[event.owner], event.figure)]
    f = work.figures[i]
    if event.change == "heal":
        work.figures[i] = msgspec.structs.replace(f, wounds=max(0, f.wounds - event.amount))
    else:
        assert event.to is not None
        work.figures[i] = msgspec.structs.replace(f, hex=tuple(event.to),
                                                  tail=tuple(event.tail) if event.tail else None)


STEPS.check(HeroScapeEvent)
# ``apply``: ``event``'s meaning (trusted: no rule re-run): its step above (engine.steps); every event counts one in
# ``seq``.
apply = STEPS.apply


FOLDING: Folding[State, Work, HeroScapeEvent] = Folding(initial_state, thaw, apply, freeze)
evolve = FOLDING.evolve
fold = FOLDING.fold


def awaited(state: State) -> tuple[str, ...]:
    """The seats whose action the game awaits (``Seating.to_act``): the first dice due, else the phase's."""
    phase = state.phase
    if phase in ("setup", "over"):
        return ()
    if state.due:
        return (state.due[0].player,)
    if phase == "turn" and state.active is not None:
        return (PLAYERS[state.active],)
    seats = tuple([s.id for s in state.seats])
    if phase == "placement":
        return tuple(p for i, p in enumerate(seats) if not state.placed[i])
    if phase == "markers":
        return tuple(p for i, p in enumerate(seats) if state.markers[i] is None)
    if phase == "turn":
        # between a turn's end (or the initiative) and the next marker's reveal, within one action's events
        if state.order and state.turn_index + 1 < TURNS_PER_ROUND * len(state.order):
            return (turn_player(state, state.turn_index + 1)[0],)
        return seats
    if phase == "initiative":  # the last d20 rolled, before the tie or the winner is recorded
        return state.contenders or seats
    return ()


def figure_json(state: State, f: Figure) -> dict[str, Any]:
    card = card_of(state, f.owner, f.card)
    return {"owner": PLAYERS[f.owner], "figure": f.id, "card": f.card, "name": card.name,
            "hex": list(f.hex) if f.hex else None, "tail": list(f.tail) if f.tail else None,
            "wounds": f.wounds, "life": card.life, "status": f.status,
            "moved": (f.owner, f.id) in state.moved, "attacked": (f.owner, f.id) in state.attacked}


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
        # issue 30: a game on another catalogue than the default names it (``GET /catalogues/{id}`` serves it)
        **({"catalogue": state.catalogue} if state.catalogue is not None else {}),
    }


__all__ = [
    "FOLDING", "INDEX", "MARKERS", "PLAYERS", "TURNS_PER_ROUND", "Due", "Figure", "Reading", "State", "Work",
    "alive_cards", "apply", "awaited", "board", "board_of", "card_alive", "card_of", "cards_of", "evolve", "figure_ids",
    "figure_index", "figure_json", "fold", "freeze", "hexes_of", "initial_state", "on_map", "occupant_at",
    "points_on_map", "seats_standing", "state_to_builtins", "thaw", "turn_player",
]
