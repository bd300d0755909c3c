"""The state of a Light Wars game, ``evolve`` (trusts its events, never re-runs a rule) and ``fold``.

A frozen msgspec Struct of tuples: units are a tuple of frozen ``Unit`` (at most 20), seats are indexed 0 (p1) and
1 (p2). The dice generator's state (``rng``, SplitMix64's state, sealed mode) lives here, boardgame.io's way; no
view shows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

import msgspec

from engine.light_wars import geometry
from engine.light_wars.catalogue import HEIGHT, UNIT_TYPES, WIDTH
from engine.prng import MASK64
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


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    owner: int  # seat index
    id: str
    type: str
    square: str | None = None
    facing: str | None = None
    status: str = "reserve"


class State(msgspec.Struct, frozen=True, kw_only=True):
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


def _set(units: tuple[Unit, ...], i: int, unit: Unit) -> tuple[Unit, ...]:
    return (*units[:i], unit, *units[i + 1 :])


def _replace(state: State, **changes: Any) -> State:
    return msgspec.structs.replace(state, seq=state.seq + 1, **changes)


def _started(event: GameStarted) -> State:
    units: list[Unit] = []
    for index, army in enumerate(event.armies):
        units.extend(Unit(owner=index, id=u.id, type=u.type) for u in army.units)
    variant = event.variant
    state = State(seq=1, seats=event.seats, variant=variant, armies=event.armies, bases=event.bases, seed=event.seed,
                  rng=(event.seed or 0) & MASK64, stock=tuple(a.stock for a in event.armies))
    position = event.position
    if position is not None:
        placed = {(INDEX[p.owner], p.unit): p for p in position.units}
        kept = []
        for u in units:
            p = placed.get((u.owner, u.id))
            if p is not None:
                kept.append(msgspec.structs.replace(u, square=p.square, facing=p.facing, status="placed"))
        to_move = INDEX[position.to_move]
        kept = [msgspec.structs.replace(u, status="ready") if u.owner == to_move else u for u in kept]
        return msgspec.structs.replace(
            state, phase="tactics", units=tuple(kept), active=to_move, first=INDEX[position.first],
            turn=position.turn, stock=tuple(position.stock[p] for p in PLAYERS),
            scores=tuple(position.scores[p] for p in PLAYERS))
    if variant.deployment == "alternate":
        return msgspec.structs.replace(state, phase="roll_off", purpose="deployment", units=tuple(units))
    return msgspec.structs.replace(state, phase="deploy", units=tuple(units))


def _has_reserve(units: tuple[Unit, ...], owner: int) -> bool:
    return any(u.owner == owner and u.status == "reserve" for u in units)


def evolve(state: State, event: LightWarsEvent) -> State:
    match event:
        case GameStarted():
            return _started(event)
        case DieRolled(purpose=purpose, player=player, value=value, source=source):
            rng = (state.rng + GAMMA) & MASK64 if source == "prng" else state.rng
            if purpose in ("attack", "defence"):
                return _replace(state, rng=rng, dice=(*state.dice, value))
            i = INDEX[player]
            rolls = (*state.rolls[:i], value, *state.rolls[i + 1 :])
            return _replace(state, rng=rng, rolls=rolls)
        case RollOffTied():
            return _replace(state, rolls=(0, 0))
        case RollOffWon(purpose=purpose, winner=winner):
            if purpose == "deployment":
                return _replace(state, rolls=(0, 0), purpose=None, phase="deploy", deployer=INDEX[winner])
            return _replace(state, rolls=(0, 0), purpose=None, phase="choose_first", decider=INDEX[winner])
        case UnitDeployed(player=player, unit=unit, square=square, facing=facing):
            owner = INDEX[player]
            i = unit_index(state, owner, unit)
            units = _set(state.units, i, msgspec.structs.replace(state.units[i], square=square, facing=facing,
                                                                 status="placed"))
            other = 1 - owner
            return _replace(state, units=units, deployer=other if _has_reserve(units, other) else owner)
        case DeploymentScreened(player=player, placements=placements):
            owner = INDEX[player]
            where = {p.unit: p for p in placements or ()}
            hidden = list(state.units)
            for i, u in enumerate(hidden):
                if u.owner == owner and u.status == "reserve":
                    spot = where.get(u.id)
                    hidden[i] = msgspec.structs.replace(u, status="screened", square=spot.square if spot else None,
                                                        facing=spot.facing if spot else None)
            return _replace(state, units=tuple(hidden))
        case ScreenLifted(placements=placements):
            shown = list(state.units)
            for player, placed in placements.items():
                owner = INDEX[player]
                for spot in placed:
                    i = unit_index(state, owner, spot.unit)
                    shown[i] = msgspec.structs.replace(shown[i], square=spot.square, facing=spot.facing,
                                                       status="placed")
            return _replace(state, units=tuple(shown))
        case DeciderNamed(player=player):
            if player is None:
                return _replace(state, phase="roll_off", purpose="first_player", rolls=(0, 0))
            return _replace(state, phase="choose_first", decider=INDEX[player])
        case FirstPlayerChosen(first=first):
            i = INDEX[first]
            units = tuple(msgspec.structs.replace(u, status="ready") if u.owner == i else u for u in state.units)
            return _replace(state, phase="tactics", first=i, active=i, turn=1, units=units)
        case TacticsDeclared(player=player, tiles=tiles, paid=paid):
            i = INDEX[player]
            stock = (*state.stock[:i], state.stock[i] - paid, *state.stock[i + 1 :])
            return _replace(state, phase="actions", tiles=tiles, stock=stock)
        case UnitMoved(player=player, unit=unit, square=square, facing=facing):
            i = unit_index(state, INDEX[player], unit)
            moved = msgspec.structs.replace(state.units[i], square=square, facing=facing, status="moved")
            return _replace(state, units=_set(state.units, i, moved))
        case UnitTurned(player=player, unit=unit, facing=facing):
            i = unit_index(state, INDEX[player], unit)
            return _replace(state, units=_set(state.units, i, msgspec.structs.replace(state.units[i], facing=facing)))
        case UnitWaited(player=player, unit=unit, facing=facing):
            i = unit_index(state, INDEX[player], unit)
            u = state.units[i]
            waited = msgspec.structs.replace(u, facing=facing or u.facing, status="done")
            return _replace(state, units=_set(state.units, i, waited))
        case AttackDeclared(attack=attack, player=player, participants=participants):
            owner = INDEX[player]
            units = state.units
            for joined in participants:
                i = unit_index(state, owner, joined.unit)
                units = _set(units, i, msgspec.structs.replace(units[i], status="done"))
            return _replace(state, units=units, attacks=attack, pending=event, dice=(), phase="roll")
        case AttackResolved(removed=removed):
            units = state.units
            bases = list(state.stock)
            scored = list(state.scores)
            for r in removed:
                owner = INDEX[r.player]
                units = tuple(u for u in units if not (u.owner == owner and u.id == r.unit))
                bases[owner] += 1  # §4: its base goes back to the owner's stock
                scored[1 - owner] += r.cost  # §5.3
            return _replace(state, units=units, stock=tuple(bases), scores=tuple(scored),
                            removed=state.removed + removed, pending=None, dice=(), phase="actions")
        case TurnPassed(player=player, turn=turn):
            i = INDEX[player]
            units = tuple(
                msgspec.structs.replace(u, status="ready" if u.owner == i else "placed")
                if u.status in ON_MAP else u for u in state.units)
            return _replace(state, active=i, turn=turn, tiles=(), units=units, phase="tactics")
        case Conceded():
            return _replace(state)
        case GameEnded(reason=reason, winner=winner, scores=scores, stock=stock):
            return _replace(state, phase="over", end_reason=reason, winner=winner, pending=None, dice=(),
                            scores=tuple(scores.get(p, 0) for p in PLAYERS),
                            stock=tuple(stock.get(p, 0) for p in PLAYERS), adjudication=event.adjudication)
        case _:
            assert_never(event)


# -- fold: many events on one working copy ------------------------------------------------------------------
#
# ``evolve`` builds a new frozen State per event (a replace of ~30 fields and a new tuple of units): right for one
# step (the cursor, the live service, decide), too slow to refold whole games. ``fold`` thaws the state once into a
# mutable working copy, applies the events of a game's every-turn kinds (dice, deployments, tactics, moves, waits,
# attacks, the turn passing) in place, and freezes once at the end; the rare events (the start, roll-offs, the
# screen, the decider, the first player, the end) go through ``evolve`` itself. These in-place paths repeat those
# events' meaning; the conformance suite holds ``fold`` of every prefix of bot games equal to the ``evolve`` loop.

_FIELDS = tuple(State.__struct_fields__)


class _Work:
    """A State's fields, mutable; ``units`` as lists ``[owner, id, type, square, facing, status]``."""

    __slots__ = (*_FIELDS, "index")
    seq: int
    phase: str
    rng: int
    deployer: int
    active: int
    turn: int
    tiles: tuple[str, ...]
    attacks: int
    pending: AttackDeclared | None
    purpose: str | None
    decider: int | None
    first: int | None
    end_reason: str | None
    winner: str | None
    adjudication: Adjudication | None
    units: list[list[Any]]
    index: dict[tuple[int, str], list[Any]]
    stock: list[int]
    scores: list[int]
    rolls: list[int]
    dice: list[int]
    removed: list[RemovedUnit]

    def __init__(self, state: State) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(state, name))
        self.units = [[u.owner, u.id, u.type, u.square, u.facing, u.status] for u in state.units]
        self.index = {(u[0], u[1]): u for u in self.units}
        self.stock = list(state.stock)
        self.scores = list(state.scores)
        self.rolls = list(state.rolls)
        self.dice = list(state.dice)
        self.removed = list(state.removed)

    def freeze(self) -> State:
        fields = {name: getattr(self, name) for name in _FIELDS}
        fields["units"] = tuple(Unit(owner=u[0], id=u[1], type=u[2], square=u[3], facing=u[4], status=u[5])
                                for u in self.units)
        for name in ("stock", "scores", "rolls", "dice", "removed"):
            fields[name] = tuple(fields[name])
        return State(**fields)


def _work_die(w: _Work, e: DieRolled) -> None:
    if e.source == "prng":
        w.rng = (w.rng + GAMMA) & MASK64
    if e.purpose in ("attack", "defence"):
        w.dice.append(e.value)
    else:
        w.rolls[INDEX[e.player]] = e.value


def _work_deployed(w: _Work, e: UnitDeployed) -> None:
    owner = INDEX[e.player]
    u = w.index[(owner, e.unit)]
    u[3], u[4], u[5] = e.square, e.facing, "placed"
    other = 1 - owner
    w.deployer = other if any(v[0] == other and v[5] == "reserve" for v in w.units) else owner


def _work_tactics(w: _Work, e: TacticsDeclared) -> None:
    w.stock[INDEX[e.player]] -= e.paid
    w.phase, w.tiles = "actions", e.tiles


def _work_moved(w: _Work, e: UnitMoved) -> None:
    u = w.index[(INDEX[e.player], e.unit)]
    u[3], u[4], u[5] = e.square, e.facing, "moved"


def _work_turned(w: _Work, e: UnitTurned) -> None:
    w.index[(INDEX[e.player], e.unit)][4] = e.facing


def _work_waited(w: _Work, e: UnitWaited) -> None:
    u = w.index[(INDEX[e.player], e.unit)]
    u[4], u[5] = e.facing or u[4], "done"


def _work_declared(w: _Work, e: AttackDeclared) -> None:
    owner = INDEX[e.player]
    for joined in e.participants:
        w.index[(owner, joined.unit)][5] = "done"
    w.attacks, w.pending, w.dice, w.phase = e.attack, e, [], "roll"


def _work_resolved(w: _Work, e: AttackResolved) -> None:
    for r in e.removed:
        owner = INDEX[r.player]
        gone = w.index.pop((owner, r.unit))
        w.units.remove(gone)
        w.stock[owner] += 1
        w.scores[1 - owner] += r.cost
    w.removed.extend(e.removed)
    w.pending, w.dice, w.phase = None, [], "actions"


def _work_turn(w: _Work, e: TurnPassed) -> None:
    i = INDEX[e.player]
    for u in w.units:
        if u[5] in ON_MAP:
            u[5] = "ready" if u[0] == i else "placed"
    w.active, w.turn, w.tiles, w.phase = i, e.turn, (), "tactics"


def _work_tied(w: _Work, e: RollOffTied) -> None:
    w.rolls = [0, 0]


def _work_won(w: _Work, e: RollOffWon) -> None:
    w.rolls, w.purpose = [0, 0], None
    if e.purpose == "deployment":
        w.phase, w.deployer = "deploy", INDEX[e.winner]
    else:
        w.phase, w.decider = "choose_first", INDEX[e.winner]


def _work_screened(w: _Work, e: DeploymentScreened) -> None:
    owner = INDEX[e.player]
    where = {p.unit: p for p in e.placements or ()}
    for u in w.units:
        if u[0] == owner and u[5] == "reserve":
            spot = where.get(u[1])
            u[3], u[4] = (spot.square, spot.facing) if spot else (None, None)
            u[5] = "screened"


def _work_lifted(w: _Work, e: ScreenLifted) -> None:
    for player, placed in e.placements.items():
        owner = INDEX[player]
        for spot in placed:
            u = w.index[(owner, spot.unit)]
            u[3], u[4], u[5] = spot.square, spot.facing, "placed"


def _work_decider(w: _Work, e: DeciderNamed) -> None:
    if e.player is None:
        w.phase, w.purpose, w.rolls = "roll_off", "first_player", [0, 0]
    else:
        w.phase, w.decider = "choose_first", INDEX[e.player]


def _work_first(w: _Work, e: FirstPlayerChosen) -> None:
    i = INDEX[e.first]
    for u in w.units:
        if u[0] == i:
            u[5] = "ready"
    w.phase, w.first, w.active, w.turn = "tactics", i, i, 1


def _work_conceded(w: _Work, e: Conceded) -> None:
    return None


def _work_ended(w: _Work, e: GameEnded) -> None:
    w.phase, w.end_reason, w.winner, w.pending, w.dice = "over", e.reason, e.winner, None, []
    w.adjudication = e.adjudication
    w.scores = [e.scores.get(p, 0) for p in PLAYERS]
    w.stock = [e.stock.get(p, 0) for p in PLAYERS]


_IN_PLACE: dict[type, Any] = {
    RollOffTied: _work_tied, RollOffWon: _work_won, DeploymentScreened: _work_screened, ScreenLifted: _work_lifted,
    DeciderNamed: _work_decider, FirstPlayerChosen: _work_first, Conceded: _work_conceded, GameEnded: _work_ended,
    DieRolled: _work_die, UnitDeployed: _work_deployed, TacticsDeclared: _work_tactics, UnitMoved: _work_moved,
    UnitTurned: _work_turned, UnitWaited: _work_waited, AttackDeclared: _work_declared,
    AttackResolved: _work_resolved, TurnPassed: _work_turn,
}


def fold(events: Iterable[LightWarsEvent], state: State | None = None) -> State:
    """``evolve`` over ``events`` from ``state`` (default ``initial_state()``); a long stream on one working copy."""
    state = initial_state() if state is None else state
    todo = events if isinstance(events, (list, tuple)) else list(events)
    if len(todo) < 8:  # thawing and freezing cost more than a few evolves
        for event in todo:
            state = evolve(state, event)
        return state
    start = 0
    if isinstance(todo[0], GameStarted):  # a whole game: its first state straight from the start
        state, start = evolve(state, todo[0]), 1
    w = _Work(state)
    for event in todo[start:] if start else todo:
        step = _IN_PLACE.get(type(event))
        if step is None:
            w = _Work(evolve(w.freeze(), event))
            continue
        step(w, event)
        w.seq += 1
    return w.freeze()


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
        "map": {
            "width": WIDTH,
            "height": HEIGHT,
            "castles": {p: geometry.castle(i) for i, p in enumerate(seats)},
            "territory": {p: [y + 1 for y in geometry.territory_rows(i)] for i, p in enumerate(seats)},
        },
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
    }


def unit_stats(u: Unit) -> tuple[int, int]:
    t = UNIT_TYPES[u.type]
    return t.move, t.attack


__all__ = [
    "INDEX", "ON_MAP", "PLAYERS", "State", "Unit", "awaited", "evolve", "fold", "initial_state", "marker",
    "state_to_builtins", "unit_at", "unit_index", "unit_json",
]
