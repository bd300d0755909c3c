"""The state of a Light Wars game and the one meaning of every event: ``apply`` on a working state (``Work``),
from which ``engine.folding.Folding`` derives ``evolve`` and ``fold`` (both trust their events, never re-run a rule).

A frozen msgspec Struct of tuples: units are a tuple of frozen ``Unit`` (at most 20), seats are indexed 0 (p1) and
1 (p2). The dice generator's state (``rng``, SplitMix64's state, sealed mode) lives here, boardgame.io's way; no
view shows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec import UnsetType

from engine.folding import Folding
from engine.light_wars.catalogue import DEFAULT, Tables, tables_of
from engine.prng import MASK64
from engine.steps import Steps
from events import Adjudication
from events.light_wars import (
    ArmyRecord,
    AttackDeclared,
    AttackResolved,
    Conceded,
    DeciderNamed,
    DeploymentScreened,
    DieRolled,
    FirstPlayerChosen,
    GameEnded,
    GameStarted,
    LightWarsEvent,
    RemovedUnit,
    RollOffTied,
    RollOffWon,
    ScreenLifted,
    SeatRecord,
    TacticsDeclared,
    TurnPassed,
    UnitDeployed,
    UnitMoved,
    UnitTurned,
    UnitWaited,
    Variant,
)

GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's step: the generator's state after a draw is the state before + GAMMA
PLAYERS = ("p1", "p2")
INDEX = {"p1": 0, "p2": 1}

# unit status: reserve (not deployed), screened (behind the screen), placed (on the map, not its turn),
# ready (may act this turn), moved (moved; may still attack or wait, R4), done (acted)
ON_MAP = frozenset({"placed", "ready", "moved", "done"})

replace = msgspec.structs.replace


class Unit(msgspec.Struct, frozen=True):
    owner: int  # seat index
    id: str
    type: str
    square: str | None = None
    facing: str | None = None
    status: str = "reserve"


class State(msgspec.Struct, frozen=True):
    seq: int = 0
    phase: str = "setup"  # setup | roll_off | deploy | choose_first | tactics | actions | roll | over
    seats: tuple[SeatRecord, ...] = ()
    variant: Variant = Variant()
    armies: tuple[ArmyRecord, ...] = ()
    bases: int = 0
    seed: int | None = None
    rng: int = 0
    units: tuple[Unit, ...] = ()
    stock: tuple[int, ...] = (0, 0)
    scores: tuple[int, ...] = (0, 0)  # the cost of the opponent's removed units (§5.3)
    removed: tuple[RemovedUnit, ...] = ()
    purpose: str | None = None  # the roll-off under way: deployment | first_player
    rolls: tuple[int, ...] = (0, 0)  # this round of the roll-off, 0 = not rolled yet
    deployer: int = 0  # alternate deployment: who places next
    decider: int | None = None  # §2.4: who chooses the first player
    first: int | None = None
    active: int = 0
    turn: int = 0
    tiles: tuple[str, ...] = ()  # tactic tiles in effect this turn
    attacks: int = 0  # attacks declared so far
    pending: AttackDeclared | None = None  # the attack whose dice are being rolled
    dice: tuple[int, ...] = ()  # its dice so far: attack, then defence
    end_reason: str | None = None
    winner: str | None = None
    adjudication: Adjudication | None = None  # how the scorekeeper ended the game (end reason adjudicated)
    tables: Tables | None = None  # the game's catalogue and map (issue 30), shared by reference; None: the default


def data_of(state: State) -> Tables:
    """The game's data: its catalogue's unit types, tactic tiles and armies, and its map (``Tables``). Every rule,
    bot and view reads them here, never from a module-level table."""
    return state.tables or DEFAULT


def _tables(event: GameStarted) -> Tables | None:
    """The tables ``game_started`` names: None for the default catalogue on its own map."""
    document = None if isinstance(event.catalogue, UnsetType) else event.catalogue
    board = None if isinstance(event.map, UnsetType) else event.map
    if document is None and board is None:
        return None
    content_id = None if isinstance(event.catalogue_id, UnsetType) else event.catalogue_id
    return tables_of(document, board, content_id)


def initial_state() -> State:
    return State()


def unit_index(state: State, owner: int, unit: str) -> int:
    for i, u in enumerate(state.units):
        if u.owner == owner and u.id == unit:
            return i
    return -1


def unit_at(state: State, square: str) -> Unit | None:
    for u in state.units:
        if u.square == square and u.status in ON_MAP:
            return u
    return None


def marker(state: State) -> int:
    """The turn marker's square: max turns on turn 1, counting down to 1 on the last turn (§3.3)."""
    return max(state.variant.max_turns - state.turn + 1, 0) if state.turn else state.variant.max_turns


def _has_reserve(units: Iterable[Unit], owner: int) -> bool:
    return any(u.owner == owner and u.status == "reserve" for u in units)


def _started(event: GameStarted) -> State:
    """The state ``game_started`` begins (its ``seq`` set by ``apply``)."""
    units = [Unit(index, u.id, u.type) for index, army in enumerate(event.armies) for u in army.units]
    variant, position = event.variant, event.position
    stock: tuple[int, ...] = tuple(a.stock for a in event.armies)
    scores: tuple[int, ...] = (0, 0)
    purpose, active, first, turn = None, 0, None, 0
    if position is not None:
        placed = {(INDEX[p.owner], p.unit): p for p in position.units}
        phase, active, first, turn = "tactics", INDEX[position.to_move], INDEX[position.first], position.turn
        units = [Unit(u.owner, u.id, u.type, p.square, p.facing, "ready" if u.owner == active else "placed")
                 for u in units if (p := placed.get((u.owner, u.id))) is not None]
        stock = tuple(position.stock[p] for p in PLAYERS)
        scores = tuple(position.scores[p] for p in PLAYERS)
    elif variant.deployment == "alternate":
        phase, purpose = "roll_off", "deployment"
    else:
        phase = "deploy"
    return State(seats=event.seats, variant=variant, armies=event.armies, bases=event.bases, seed=event.seed,
                 rng=(event.seed or 0) & MASK64, units=tuple(units), stock=stock, scores=scores, phase=phase,
                 purpose=purpose, active=active, first=first, turn=turn, tables=_tables(event))


# -- the working state and what every event means ---------------------------------------------------------------
#
# ``Work`` holds a State's fields, the sequences as lists, and its units spread into six lists of their fields (the
# unit at place ``i`` is ``owners[i]``, ``ids[i]``, ...): a move, a turn or a wait, two thirds of a game's events,
# stores into lists and makes no object. ``places`` finds a unit's place in the lists: made at the first look-up (a
# fold makes it once a game) and kept up to date when a unit leaves them.


class Work:
    """A ``State``'s fields, mutable: ``stock``, ``scores``, ``rolls``, ``dice`` and ``removed`` as lists, the units as
    the lists of their fields."""

    __slots__ = ("active", "adjudication", "armies", "attacks", "bases", "decider", "deployer", "dice", "end_reason",
                 "facings", "first", "ids", "owners", "pending", "phase", "places", "purpose", "removed", "rng",
                 "rolls", "scores", "seats", "seed", "seq", "squares", "statuses", "stock", "tables", "tiles", "turn",
                 "types", "variant", "winner")
    seq: int
    phase: str
    seats: tuple[SeatRecord, ...]
    variant: Variant
    armies: tuple[ArmyRecord, ...]
    bases: int
    seed: int | None
    rng: int
    owners: list[int]
    ids: list[str]
    types: list[str]
    squares: list[str | None]
    facings: list[str | None]
    statuses: list[str]
    places: dict[tuple[str, str], int] | None  # (owner's seat, unit id) -> its place in the lists; None: not made yet
    stock: list[int]
    scores: list[int]
    removed: list[RemovedUnit]
    purpose: str | None
    rolls: list[int]
    deployer: int
    decider: int | None
    first: int | None
    active: int
    turn: int
    tiles: tuple[str, ...]
    attacks: int
    pending: AttackDeclared | None
    dice: list[int]
    end_reason: str | None
    winner: str | None
    adjudication: Adjudication | None
    tables: Tables | None


def _load(w: Work, s: State) -> None:
    """Every field of ``w`` from ``s`` (its tuples and frozen structs are shared: nothing of them is mutable)."""
    w.seq, w.phase, w.seats, w.variant, w.armies, w.bases = s.seq, s.phase, s.seats, s.variant, s.armies, s.bases
    w.seed, w.rng, w.stock, w.scores = s.seed, s.rng, list(s.stock), list(s.scores)
    units = s.units
    w.owners, w.ids, w.types = [u.owner for u in units], [u.id for u in units], [u.type for u in units]
    w.squares, w.facings = [u.square for u in units], [u.facing for u in units]
    w.statuses, w.places = [u.status for u in units], None
    w.removed, w.purpose, w.rolls, w.deployer = list(s.removed), s.purpose, list(s.rolls), s.deployer
    w.decider, w.first, w.active, w.turn, w.tiles = s.decider, s.first, s.active, s.turn, s.tiles
    w.attacks, w.pending, w.dice = s.attacks, s.pending, list(s.dice)
    w.end_reason, w.winner, w.adjudication = s.end_reason, s.winner, s.adjudication
    w.tables = s.tables


def thaw(state: State) -> Work:
    """A working copy of ``state``: changing it never changes ``state``."""
    w = Work()
    _load(w, state)
    return w


def freeze(w: Work) -> State:
    """The frozen ``State`` of ``w``. Positional arguments, in the fields' order: a frozen Struct is made several
    times faster so than by keywords (``evolve`` freezes once an event)."""
    units = tuple(map(Unit, w.owners, w.ids, w.types, w.squares, w.facings, w.statuses))
    return State(w.seq, w.phase, w.seats, w.variant, w.armies, w.bases, w.seed, w.rng, units,
                 tuple(w.stock), tuple(w.scores), tuple(w.removed), w.purpose, tuple(w.rolls), w.deployer, w.decider,
                 w.first, w.active, w.turn, w.tiles, w.attacks, w.pending, tuple(w.dice), w.end_reason, w.winner,
                 w.adjudication, w.tables)


def _places(w: Work) -> dict[tuple[str, str], int]:
    places = w.places = {(PLAYERS[owner], unit): i
                         for i, (owner, unit) in enumerate(zip(w.owners, w.ids, strict=True))}
    return places


def _at(w: Work, player: str, unit: str) -> int:
    """The place of ``player``'s ``unit`` in the unit lists."""
    return (w.places or _places(w))[(player, unit)]


def _take_off(w: Work, player: str, unit: str) -> None:
    """``player``'s ``unit`` leaves the lists; the places of the units after it move up one."""
    places = w.places or _places(w)
    gone = places.pop((player, unit))
    for column in (w.owners, w.ids, w.types, w.squares, w.facings, w.statuses):
        del column[gone]
    for key, i in places.items():
        if i > gone:
            places[key] = i - 1


STEPS: Steps[Work] = Steps("Light Wars")
on = STEPS.on


@on(DieRolled)
def _die_rolled(w: Work, e: DieRolled) -> None:
    if e.source == "prng":  # the generator's state moves on by one draw
        w.rng = (w.rng + GAMMA) & MASK64
    if e.purpose in ("attack", "defence"):
        w.dice.append(e.value)
    else:
        w.rolls[INDEX[e.player]] = e.value


@on(UnitDeployed)
def _unit_deployed(w: Work, e: UnitDeployed) -> None:
    owner = INDEX[e.player]
    i = _at(w, e.player, e.unit)
    w.squares[i], w.facings[i], w.statuses[i] = e.square, e.facing, "placed"
    other = 1 - owner
    reserve = any(o == other and status == "reserve" for o, status in zip(w.owners, w.statuses, strict=True))
    w.deployer = other if reserve else owner


@on(DeploymentScreened)
def _screened(w: Work, e: DeploymentScreened) -> None:
    owner = INDEX[e.player]
    where = {p.unit: p for p in e.placements or ()}
    for i, (o, unit, status) in enumerate(zip(w.owners, w.ids, w.statuses, strict=True)):
        if o == owner and status == "reserve":
            spot = where.get(unit)
            w.statuses[i] = "screened"
            w.squares[i], w.facings[i] = (spot.square, spot.facing) if spot else (None, None)


@on(ScreenLifted)
def _screen_lifted(w: Work, e: ScreenLifted) -> None:
    for player, placed in e.placements.items():
        for spot in placed:
            i = _at(w, player, spot.unit)
            w.squares[i], w.facings[i], w.statuses[i] = spot.square, spot.facing, "placed"


@on(AttackDeclared)
def _attack_declared(w: Work, e: AttackDeclared) -> None:
    for joined in e.participants:
        w.statuses[_at(w, e.player, joined.unit)] = "done"
    w.attacks, w.pending, w.dice, w.phase = e.attack, e, [], "roll"


@on(AttackResolved)
def _attack_resolved(w: Work, e: AttackResolved) -> None:
    for r in e.removed:
        owner = INDEX[r.player]
        _take_off(w, r.player, r.unit)
        w.stock[owner] += 1  # §4: its base goes back to the owner's stock
        w.scores[1 - owner] += r.cost  # §5.3
    w.removed.extend(e.removed)
    w.pending, w.dice, w.phase = None, [], "actions"


@on(TurnPassed)
def _turn_passed(w: Work, e: TurnPassed) -> None:
    i = INDEX[e.player]
    statuses = w.statuses
    for n, owner in enumerate(w.owners):
        if statuses[n] in ON_MAP:
            statuses[n] = "ready" if owner == i else "placed"
    w.active, w.turn, w.tiles, w.phase = i, e.turn, (), "tactics"


@on(FirstPlayerChosen)
def _first_player_chosen(w: Work, e: FirstPlayerChosen) -> None:
    i = INDEX[e.first]
    for n, owner in enumerate(w.owners):
        if owner == i:
            w.statuses[n] = "ready"
    w.phase, w.first, w.active, w.turn = "tactics", i, i, 1


@on(GameEnded)
def _game_ended(w: Work, e: GameEnded) -> None:
    w.phase, w.end_reason, w.winner, w.adjudication = "over", e.reason, e.winner, e.adjudication
    w.pending, w.dice = None, []
    w.scores = [e.scores.get(p, 0) for p in PLAYERS]
    w.stock = [e.stock.get(p, 0) for p in PLAYERS]


@on(UnitWaited)
def _unit_waited(w: Work, e: UnitWaited) -> None:
    i = (w.places or _places(w))[(e.player, e.unit)]  # _at written out: a Python call costs as much as the look-up
    w.facings[i], w.statuses[i] = e.facing or w.facings[i], "done"


@on(UnitMoved)
def _unit_moved(w: Work, e: UnitMoved) -> None:
    i = (w.places or _places(w))[(e.player, e.unit)]
    w.squares[i], w.facings[i], w.statuses[i] = e.square, e.facing, "moved"


@on(UnitTurned)
def _unit_turned(w: Work, e: UnitTurned) -> None:
    w.facings[(w.places or _places(w))[(e.player, e.unit)]] = e.facing


@on(TacticsDeclared)
def _tactics_declared(w: Work, e: TacticsDeclared) -> None:
    w.stock[INDEX[e.player]] -= e.paid
    w.phase, w.tiles = "actions", e.tiles


@on(GameStarted)
def _game_started(w: Work, e: GameStarted) -> None:
    _load(w, replace(_started(e), seq=w.seq))


@on(DeciderNamed)
def _decider_named(w: Work, e: DeciderNamed) -> None:
    if e.player is None:  # §2.4: a roll-off decides who chooses
        w.phase, w.purpose, w.rolls = "roll_off", "first_player", [0, 0]
    else:
        w.phase, w.decider = "choose_first", INDEX[e.player]


@on(RollOffWon)
def _roll_off_won(w: Work, e: RollOffWon) -> None:
    w.rolls, w.purpose = [0, 0], None
    if e.purpose == "deployment":
        w.phase, w.deployer = "deploy", INDEX[e.winner]
    else:
        w.phase, w.decider = "choose_first", INDEX[e.winner]


@on(RollOffTied)
def _roll_off_tied(w: Work, e: RollOffTied) -> None:
    w.rolls = [0, 0]


@on(Conceded)
def _conceded(w: Work, e: Conceded) -> None:
    """The game_ended that follows says the rest."""


STEPS.check(LightWarsEvent)
# ``apply``: ``event`` happened, change ``w`` accordingly: the steps above (engine.steps: the event counted, then its
# step; trusting the event, never re-running a rule).
apply = STEPS.apply


FOLDING: Folding[State, Work, LightWarsEvent] = Folding(initial_state, thaw, apply, freeze)
evolve = FOLDING.evolve
fold = FOLDING.fold


def awaited(state: State) -> tuple[str, ...]:
    """The seats whose action the game awaits (``Seating.to_act``)."""
    phase = state.phase
    if phase in ("tactics", "actions"):
        return (PLAYERS[state.active],)
    seats = PLAYERS[: len(state.seats)]
    # Between the events of one action (every unit deployed, every die of a roll-off rolled) the seats of the step
    # under way stay awaited: the next event of the same action moves the game on.
    if phase == "deploy":
        if state.variant.deployment == "alternate":
            return (PLAYERS[state.deployer],)
        return tuple(p for i, p in enumerate(seats) if _has_reserve(state.units, i)) or seats
    if phase == "roll":
        pending = state.pending
        if pending is None:
            return ()
        return (pending.player,) if not state.dice else (pending.defender,)
    if phase == "roll_off":
        return tuple(p for i, p in enumerate(seats) if state.rolls[i] == 0) or seats
    if phase == "choose_first" and state.decider is not None:
        return (PLAYERS[state.decider],)
    return ()


def unit_json(u: Unit) -> dict[str, Any]:
    return {"owner": PLAYERS[u.owner], "unit": u.id, "type": u.type, "square": u.square, "facing": u.facing,
            "status": u.status}


def state_to_builtins(state: State) -> dict[str, Any]:
    """The state as plain JSON data (view ``all``): the shape docs/light-wars.md documents."""
    seats = [s.id for s in state.seats]
    to_act = awaited(state)
    pending = state.pending
    return {
        "seq": state.seq,
        "phase": state.phase,
        "mode": state.variant.mode,
        "size": state.variant.size,
        "total_cost": state.variant.total_cost,
        "max_turns": state.variant.max_turns,
        "deployment": state.variant.deployment,
        "turn": state.turn,
        "marker": marker(state),
        "active": PLAYERS[state.active] if state.phase in ("tactics", "actions", "roll") else None,
        "to_act": list(to_act),
        "first": PLAYERS[state.first] if state.first is not None else None,
        "decider": PLAYERS[state.decider] if state.decider is not None else None,
        "seats": [{"id": s.id, "name": s.name} for s in state.seats],
        "map": data_of(state).board.describe(),
        "units": [unit_json(u) for u in state.units],
        "removed": [msgspec.to_builtins(r) for r in state.removed],
        "armies": {
            a.player: {"name": a.name, "cost": a.cost, "unused": state.variant.total_cost - a.cost,
                       "tactics": list(a.tactics), "units": [u.id for u in a.units]}
            for a in state.armies
        },
        "stock": {p: state.stock[i] for i, p in enumerate(seats)},
        "scores": {p: state.scores[i] for i, p in enumerate(seats)},
        "tactics_in_effect": list(state.tiles),
        "roll_off": {"purpose": state.purpose,
                     "rolls": {p: (state.rolls[i] or None) for i, p in enumerate(seats)}} if state.purpose else None,
        "attack": {**msgspec.to_builtins(pending), "dice": list(state.dice)} if pending is not None else None,
        "attacks": state.attacks,
        "winner": (state.winner or "draw") if state.phase == "over" else None,
        "end_reason": state.end_reason,
        "adjudication": msgspec.to_builtins(state.adjudication) if state.adjudication is not None else None,
    } | _catalogue_json(state)


def _catalogue_json(state: State) -> dict[str, Any]:
    """A game on another catalogue than the default names it (its content id; ``GET /catalogues/{id}`` serves it) and
    the map played; the default catalogue's games show neither (their state is what it always was)."""
    tables = state.tables
    if tables is None:
        return {}
    return {"catalogue": tables.id, "map_name": tables.board.name}


__all__ = [
    "FOLDING", "INDEX", "ON_MAP", "PLAYERS", "State", "Unit", "Work", "apply", "awaited", "data_of", "evolve", "fold",
    "freeze",
    "initial_state", "marker", "state_to_builtins", "thaw", "unit_at", "unit_index", "unit_json",
]
