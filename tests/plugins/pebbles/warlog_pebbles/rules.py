"""Pebbles: a tiny game system for the tests only, a package of its own installed into the test venv, never shipped.

It exists to hold the ``GameSystem`` protocol to more than Lords of War's shape: three or four seats, teams, a
concession that does not end the game, placings with ties, a hidden value per seat.

Rules. A heap of pebbles (``variant.heap``, 6 to 99, default 21); 3 or 4 seats (``variant.teams``: 4 seats, p1 and
p3 against p2 and p4). Each seat is dealt a secret bonus of 0 to 2 (``bonus_dealt``, hidden from the other seats
until ``game_ended`` reveals every bonus). Seats take turns in seating order, skipping the ones out:
- P1 only the seat to act takes; P2 it takes 1 to 3 pebbles; P3 no more than the heap holds.
- P4 a seat may concede at any time while it is in (with teams, it concedes for its team); P5 nothing after the end.
- The game ends when the heap is empty (``heap_empty``) or one side is left (``last_standing``), or when the
  scorekeeper adjudicates (``adjudicated``, engine.adjudication). Time called (``on_time``): the placings the game
  would have now, by score as below (the bonuses count, as at the end).

Score of a seat: pebbles taken + bonus (after ``game_ended``, the bonuses it reveals). Placings: the sides still in
by score (a team: its seats' sum; equal scores tie), then the sides out, the last to concede first.

``PEBBLES`` is its ``engine.system.GameSystem``, an ``engine.definition.System`` of this module's functions. Its
replay parts (views, explanations, a text record, a terminal picture) are in ``replay_parts.py``, its API parts in
``api_parts.py``; the plug-in that gives all three is ``warlog_pebbles.PLUGIN``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, assert_never

import msgspec

from engine.adjudication import (
    SCOREKEEPER,
    Adjudicate,
    adjudicate,
    is_adjudication,
    parse_adjudication,
    recorded_adjudication,
)
from engine.definition import System, Unfolded
from engine.errors import RuleError, SetupError, StreamError
from engine.prng import SplitMix64
from engine.system import (
    GameSystem,
    Outcome,
    RecordedAction,
    Seat,
    SeatCounts,
    TimeRuling,
    seat_id,
)
from events import Adjudication, Codec, Event

NAME = "pebbles"


# -- events -----------------------------------------------------------------------------------------------------


class SeatRecord(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    team: str | None = None


class GameStarted(Event, frozen=True, tag="game_started"):
    system: str  # "pebbles": a stream names its system (JSONL import reads it)
    seats: tuple[SeatRecord, ...]
    heap: int
    teams: bool
    seed: int | None  # None only in a view that may not see it (it deals the bonuses)


class BonusDealt(Event, frozen=True, tag="bonus_dealt"):
    player: str
    bonus: int  # hidden from the other seats until game_ended


class Taken(Event, frozen=True, tag="taken"):
    player: str
    count: int


class Conceded(Event, frozen=True, tag="conceded"):
    player: str


class GameEnded(Event, frozen=True, tag="game_ended", omit_defaults=True):
    reason: Literal["heap_empty", "last_standing", "adjudicated"]
    bonuses: dict[str, int]  # every seat's bonus, revealed
    adjudication: Adjudication | None = None  # how the scorekeeper ended it (reason adjudicated)


PebblesEvent = GameStarted | BonusDealt | Taken | Conceded | GameEnded
CODEC: Codec[PebblesEvent] = Codec(PebblesEvent)


# -- actions ----------------------------------------------------------------------------------------------------


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    player: str


class Take(Action, frozen=True, tag="take"):
    count: int


class Concede(Action, frozen=True, tag="concede"):
    pass


PebblesAction = Take | Concede | Adjudicate


# -- state ------------------------------------------------------------------------------------------------------


class State(msgspec.Struct, frozen=True, kw_only=True):
    seq: int = 0
    phase: str = "setup"  # setup | play | over
    seats: tuple[SeatRecord, ...] = ()
    heap: int = 0
    active: int = 0
    turn: int = 0
    taken: tuple[int, ...] = ()
    bonuses: tuple[int, ...] = ()
    out: tuple[str, ...] = ()  # seats out, in the order they conceded
    end_reason: str | None = None
    adjudication: Adjudication | None = None


def _index(state: State, player: str) -> int | None:
    return next((seat_index for seat_index, s in enumerate(state.seats) if s.id == player), None)


def _side(state: State, player: str) -> tuple[str, ...]:
    """The seats that play with ``player`` (its team, or itself)."""
    seat = state.seats[_index(state, player) or 0]
    return tuple(s.id for s in state.seats if s.id == player or (seat.team is not None and s.team == seat.team))


def _sides_in(state: State, out: Sequence[str]) -> set[tuple[str, ...]]:
    return {_side(state, s.id) for s in state.seats if s.id not in out}


def _scores(state: State) -> dict[str, int]:
    """Each seat's score: pebbles taken plus its bonus."""
    return {s.id: t + b for s, t, b in zip(state.seats, state.taken, state.bonuses, strict=True)}


def _placings(state: State, scores: dict[str, int]) -> list[tuple[str, ...]]:
    """The sides still in by score (a team: its seats' sum; equal scores tie), then the sides out, the last out
    first."""
    standing: dict[int, list[str]] = {}
    for side in sorted(_sides_in(state, state.out), key=lambda side: _index(state, side[0]) or 0):
        standing.setdefault(sum(scores[s] for s in side), []).extend(side)
    placings = [tuple(standing[score]) for score in sorted(standing, reverse=True)]
    gone: list[tuple[str, ...]] = []
    for seat in reversed(state.out):  # the last out places highest among those out
        side = _side(state, seat)
        if side not in gone:
            gone.append(side)
    return placings + gone


def _next_in(state: State, after: int, out: Sequence[str]) -> int:
    n = len(state.seats)
    for step in range(1, n + 1):
        candidate = (after + step) % n
        if state.seats[candidate].id not in out:
            return candidate
    return after


class RandomBot:
    """Uniform over the takes, by the project's generator."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> PebblesAction:
        actions = PEBBLES.legal_actions(state, seat)
        return actions[self.rng.below(len(actions))]


class GreedyBot:
    """Takes as many as it may."""

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, state: State, seat: str) -> PebblesAction:
        return PEBBLES.legal_actions(state, seat)[-1]



# -- Rules -----------------------------------------------------------------------------------------------------------

def start(setup: dict[str, Any]) -> tuple[PebblesEvent, ...]:
    seated_at = seats(setup)
    variant = setup.get("variant") or {}
    heap, seed = variant.get("heap", 21), setup.get("seed", 0)
    if not isinstance(heap, int) or isinstance(heap, bool) or not 6 <= heap <= 99:
        raise SetupError("invalid_variant", "setup", f"heap must be 6 to 99 pebbles, not {heap!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise SetupError("invalid_setup", "setup", f"seed must be a whole number >= 0, not {seed!r}")
    names = [str(p.get("name", s.id)) for p, s in zip(setup["players"], seated_at, strict=True)]
    rng = SplitMix64(seed)
    seated = tuple(SeatRecord(id=s.id, name=n, team=s.team) for s, n in zip(seated_at, names, strict=True))
    started = GameStarted(system=NAME, seats=seated, heap=heap, teams=bool(variant.get("teams")), seed=seed)
    return (started, *(BonusDealt(player=s.id, bonus=rng.below(3)) for s in seated_at))


def initial_state() -> State:
    return State()


def decide(state: State, action: PebblesAction) -> tuple[PebblesEvent, ...]:
    if isinstance(action, Adjudicate):
        teams: dict[str, list[str]] = {}
        for s in state.seats:
            if s.team is not None:
                teams.setdefault(s.team, []).append(s.id)
        adjudged = adjudicate(action, [s.id for s in state.seats], state, lambda: on_time(state), teams)
        return (_end(state, "adjudicated", adjudged),)
    if state.phase == "setup":
        raise RuleError("not_started", "setup", "the game has not started")
    if state.phase == "over":
        raise RuleError("game_over", "P5", f"the game is over ({state.end_reason})")
    seat = _index(state, action.player)
    if seat is None:
        raise RuleError("unknown_player", "contract", f"there is no seat {action.player!r}")
    if action.player in state.out:
        raise RuleError("out", "P4", f"{action.player} has conceded and is out")
    match action:
        case Concede():
            out = (*state.out, *_side(state, action.player))
            ended = len(_sides_in(state, out)) <= 1
            return (Conceded(player=action.player), *((_end(state, "last_standing"),) if ended else ()))
        case Take(count=count):
            if seat != state.active:
                raise RuleError("not_your_turn", "P1", f"it is {state.seats[state.active].id}'s turn")
            if not 1 <= count <= 3:
                raise RuleError("take_range", "P2", f"take 1 to 3 pebbles, not {count}")
            if count > state.heap:
                raise RuleError("heap_short", "P3", f"the heap holds {state.heap}, not {count}")
            ended = count == state.heap
            return (Taken(player=action.player, count=count), *((_end(state, "heap_empty"),) if ended else ()))
        case _:
            assert_never(action)


def _end(state: State, reason: Literal["heap_empty", "last_standing", "adjudicated"],
         adjudication: Adjudication | None = None) -> GameEnded:
    return GameEnded(reason=reason, bonuses={s.id: b for s, b in zip(state.seats, state.bonuses, strict=True)},
                     adjudication=adjudication)


def evolve(state: State, event: PebblesEvent) -> State:
    seq = state.seq + 1
    match event:
        case GameStarted():
            n = len(event.seats)
            return State(seq=seq, phase="play", seats=event.seats, heap=event.heap, turn=1, taken=(0,) * n,
                         bonuses=(0,) * n)
        case BonusDealt():
            i = _index(state, event.player) or 0
            bonuses = (*state.bonuses[:i], event.bonus, *state.bonuses[i + 1 :])
            return msgspec.structs.replace(state, seq=seq, bonuses=bonuses)
        case Taken():
            i = _index(state, event.player) or 0
            taken = (*state.taken[:i], state.taken[i] + event.count, *state.taken[i + 1 :])
            return msgspec.structs.replace(state, seq=seq, heap=state.heap - event.count, taken=taken,
                                           active=_next_in(state, i, state.out), turn=state.turn + 1)
        case Conceded():
            out = (*state.out, *_side(state, event.player))
            active = state.active if state.seats[state.active].id not in out else _next_in(state, state.active, out)
            return msgspec.structs.replace(state, seq=seq, out=out, active=active)
        case GameEnded():  # the bonuses as revealed: what every view sees from now on
            bonuses = tuple(event.bonuses.get(s.id, b) for s, b in zip(state.seats, state.bonuses, strict=True))
            return msgspec.structs.replace(state, seq=seq, phase="over", end_reason=event.reason, bonuses=bonuses,
                                           adjudication=event.adjudication)
        case _:
            assert_never(event)


def fold(events: Iterable[PebblesEvent], state: State | None = None) -> State:
    state = initial_state() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state


def parse_action(data: Any) -> PebblesAction:
    if is_adjudication(data):
        return parse_adjudication(data)
    try:
        return msgspec.convert(data, PebblesAction)  # type: ignore[no-any-return]
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"not a pebbles action: {error}") from None


def legal_actions(state: State, seat: str | None = None) -> Sequence[PebblesAction]:
    """Every take of the seat to act; concession (legal any time while in) is left out."""
    awaited = to_act(state)
    if not awaited or (seat is not None and seat not in awaited):
        return []
    return [Take(player=awaited[0], count=n) for n in range(1, min(3, state.heap) + 1)]


def concession(seat: str) -> PebblesAction:
    return Concede(player=seat)


def state_to_builtins(state: State) -> dict[str, Any]:
    result = outcome(state)
    return {
        "seq": state.seq, "phase": state.phase, "turn": state.turn, "heap": state.heap,
        "active": to_act(state)[0] if to_act(state) else None,
        "seats": [msgspec.to_builtins(s) for s in state.seats],
        "taken": {s.id: n for s, n in zip(state.seats, state.taken, strict=True)},
        "bonuses": {s.id: b for s, b in zip(state.seats, state.bonuses, strict=True)},
        "out": list(state.out), "end_reason": state.end_reason,
        "winners": list(result.winners) if result else None,
        "winner": None if result is None else "draw" if result.is_draw else "+".join(result.winners),
        "adjudication": msgspec.to_builtins(state.adjudication) if state.adjudication is not None else None,
    }

# -- Seating ---------------------------------------------------------------------------------------------------------

def seat_counts(setup: Mapping[str, Any] | None = None) -> SeatCounts:
    teams = bool(((setup or {}).get("variant") or {}).get("teams"))
    return SeatCounts(4, 4) if teams else SeatCounts(3, 4)


def seats(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    players = setup.get("players")
    counts = seat_counts(setup)
    if not isinstance(players, list) or len(players) not in counts or not all(isinstance(p, dict) for p in players):
        raise SetupError("invalid_setup", "setup", f"pebbles is played by {counts} players")
    teams = counts.min == 4
    return tuple(Seat(id=seat_id(i), index=i, team=("odd", "even")[i % 2] if teams else None)
                 for i in range(len(players)))


def to_act(state: State) -> tuple[str, ...]:
    return (state.seats[state.active].id,) if state.phase == "play" else ()


def turn(state: State) -> int:
    return state.turn

# -- Results ---------------------------------------------------------------------------------------------------------

def outcome(state: State) -> Outcome | None:
    if state.phase != "over" or state.end_reason is None:
        return None
    scores = _scores(state)
    if state.adjudication is not None:
        return Outcome.adjudicated(state.adjudication, scores)
    return Outcome.ranked(_placings(state, scores), state.end_reason, scores)


def on_time(state: State) -> TimeRuling:
    """Time called: the placings the game has now (score of the sides still in, then the sides out)."""
    scores = _scores(state)
    shown = ", ".join(f"{seat} {score}" for seat, score in scores.items())
    return TimeRuling(tuple(_placings(state, scores)), f"the sides still in by score ({shown}), then those out")

# -- Records ---------------------------------------------------------------------------------------------------------

def recorded_setup(events: Sequence[PebblesEvent]) -> dict[str, Any]:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a pebbles stream starts with game_started")
    started = events[0]
    return {"system": NAME, "players": [{"id": s.id, "name": s.name} for s in started.seats],
            "variant": {"heap": started.heap, "teams": started.teams}, "seed": started.seed}


def recorded_actions(events: Sequence[PebblesEvent]) -> list[RecordedAction[PebblesAction]]:
    out: list[RecordedAction[PebblesAction]] = []
    i = 0
    while i < len(events) and isinstance(events[i], (GameStarted, BonusDealt)):
        i += 1
    while i < len(events):
        event = events[i]
        match event:
            case Taken():
                action: PebblesAction = Take(player=event.player, count=event.count)
            case Conceded():
                action = Concede(player=event.player)
            case GameEnded(adjudication=adjudication) if adjudication is not None:
                out.append(RecordedAction(i, i + 1, SCOREKEEPER, recorded_adjudication(adjudication)))
                i += 1
                continue
            case _:
                raise StreamError(i, f"event {i + 1}: {type(event).tag_name()} does not start an action")
        ends = i + 1 < len(events) and isinstance(events[i + 1], GameEnded) and events[i + 1].adjudication is None
        stop = i + 2 if ends else i + 1
        out.append(RecordedAction(i, stop, action.player, action))
        i = stop
    return out


# -- SelfPlay --------------------------------------------------------------------------------------------------------

def sample_setup(index: int, seed: int, seats: int | None = None) -> dict[str, Any]:
    count = 3 + index % 2 if seats is None else seats
    teams = count == 4 and index % 4 == 3
    if count not in seat_counts({"variant": {"teams": teams}}):
        raise SetupError("invalid_setup", "setup", f"pebbles is played by 3 or 4 players, not {count}")
    return {"system": NAME, "players": [{"id": seat_id(i), "name": f"bot {i + 1}"} for i in range(count)],
            "variant": {"heap": (12, 21, 30)[index % 3], "teams": teams}, "seed": seed}


# The scorekeeper's Adjudicate is decided in pebbles' own rules (decide, parse_action, recorded_actions).
PEBBLES: GameSystem[State, PebblesAction, PebblesEvent] = System(
    name=NAME, rules_version="pebbles/1", codec=CODEC, action_type=PebblesAction,
    folding=Unfolded(initial_state, evolve, fold), start=start, decide=decide, parse_action=parse_action,
    legal_actions=legal_actions, concession=concession, state_to_builtins=state_to_builtins,
    seat_counts=seat_counts, seats=seats, to_act=to_act, turn=turn, outcome=outcome, on_time=on_time,
    recorded_setup=recorded_setup, recorded_actions=recorded_actions,
    bots={"random": RandomBot, "greedy": GreedyBot}, sample_setup=sample_setup,
)
