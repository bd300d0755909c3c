"""Play and re-decide through the ``GameSystem`` protocol alone, for every system: bot games (``play``), the
generic re-decide loop a system may offer as its ``redecide`` (``redecide_by_evolve``) and the verification of a
record with today's rules (``verify``)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from engine.adjudication import SCOREKEEPER, Adjudicate, acting_seat
from engine.errors import RuleError, StreamError
from engine.system import Bot, GameSystem, RecordedAction, Redecided, Rules, Seat, stalls
from events import Event

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E", bound=Event)

BotChoice = str | Bot[Any, Any]  # a bot's name in the system's ``bots``, or a bot


class PlayedGame(NamedTuple, Generic[A, E]):
    """A bot game: every event (``game_started`` first, ``game_ended`` last), each action with its seat and span,
    and whether the action limit ended it by concessions (a bot that cannot finish a game is a defect)."""

    events: list[E]
    actions: list[RecordedAction[A]]
    conceded_at_limit: bool


def seat_bots(
    system: GameSystem[S, A, E], seats: Sequence[Seat], bots: Sequence[BotChoice] | Mapping[str, BotChoice], seed: int
) -> dict[str, Bot[S, A]]:
    """A bot per seat: ``bots`` by seat id, or in seating order (a shorter list repeats its last choice). A named
    bot is made by the system's factory with ``seed + seat index`` (p1: seed, p2: seed + 1, ...)."""
    if isinstance(bots, str):
        bots = (bots,)
    if not bots:
        raise ValueError("no bots to play with")
    out: dict[str, Bot[S, A]] = {}
    for seat in seats:
        if isinstance(bots, Mapping):
            if seat.id not in bots:
                raise ValueError(f"no bot for seat {seat.id}")
            choice = bots[seat.id]
        else:
            choice = bots[min(seat.index, len(bots) - 1)]
        if isinstance(choice, str):
            factory = system.bots.get(choice)
            if factory is None:
                raise ValueError(f"unknown bot {choice!r} for {system.name}: {', '.join(sorted(system.bots))}")
            out[seat.id] = factory(seed + seat.index)
        else:
            out[seat.id] = choice
    return out


def play(
    system: GameSystem[S, A, E],
    setup: dict[str, Any],
    bots: Sequence[BotChoice] | Mapping[str, BotChoice] = ("random",),
    seed: int | None = None,
    max_actions: int = 10_000,
) -> PlayedGame[A, E]:
    """Start ``setup`` and let bots play it to the end through the protocol: ``to_act``, ``Bot.choose``,
    ``decide``, ``evolve``, ``outcome``. ``seed`` seeds the bots (default: the setup's seed, else 0).

    After ``max_actions`` actions every awaited seat concedes in turn (the safety net ``warlog demo`` needs);
    ``conceded_at_limit`` says so. A game that does not end even then, or a running game that awaits nobody,
    raises RuntimeError: the system is broken. A system that tells stalled games (``Stalling``) has such a game
    ended as a draw by the scorekeeper: ``adjudicate`` with reason ``stalled`` (its step's seat is
    ``scorekeeper``).
    """
    seats = system.seats(setup)
    if seed is None:
        given = setup.get("seed")
        seed = given if isinstance(given, int) else 0
    players = seat_bots(system, seats, bots, seed)
    events = list(system.start(setup))
    state = system.fold(events)
    actions: list[RecordedAction[A]] = []
    limit = False
    while system.outcome(state) is None:
        stalled: Any = stalled_draw(system, state)
        if stalled is not None:
            produced = system.decide(state, stalled)
            for event in produced:
                state = system.evolve(state, event)
            actions.append(RecordedAction(len(events), len(events) + len(produced), SCOREKEEPER, stalled))
            events.extend(produced)
            continue
        awaited = system.to_act(state)
        if not awaited:
            raise RuntimeError(
                f"{system.name}: the game runs (no outcome) but awaits no seat, after {len(events)} events"
            )
        seat = awaited[0]
        if len(actions) >= max_actions:
            if len(actions) >= max_actions + 2 * len(seats):
                raise RuntimeError(f"{system.name}: the game does not end even by concessions")
            limit = True
            action = system.concession(seat)
        else:
            action = players[seat].choose(state, seat)
        produced = system.decide(state, action)
        for event in produced:
            state = system.evolve(state, event)
        actions.append(RecordedAction(len(events), len(events) + len(produced), seat, action))
        events.extend(produced)
    return PlayedGame(events, actions, limit)


def stalled_draw(system: Any, state: Any) -> Adjudicate | None:
    """The scorekeeper's adjudication that ends a stalled bot game as a draw, when the system tells stalled games
    (``Stalling``) and this one is; else None (bot games: ``play``, ``warlog demo``)."""
    if stalls(system, state):
        return Adjudicate(winner="draw", reason="stalled")
    return None


def actions_from(events: Sequence[E], start: int, action_of: Callable[[E, int], A | None]) -> list[RecordedAction[A]]:
    """A stream cut into the actions that produced it, from ``start`` (after the opening ``start`` gives): each
    action starts with the event ``action_of`` names an action (it has a ``player``, or is an ``adjudicate``: the
    scorekeeper's); the events after it for which ``action_of`` is None are its consequences. StreamError for a
    consequence where an action must start."""
    out: list[RecordedAction[A]] = []
    i = start
    while i < len(events):
        action = action_of(events[i], i)
        if action is None:
            raise StreamError(i, f"event {i + 1}: {type(events[i]).tag_name()} does not start an action")
        stop = i + 1
        while stop < len(events) and action_of(events[stop], stop) is None:
            stop += 1
        out.append(RecordedAction(i, stop, acting_seat(action), action))
        i = stop
    return out


def redecide_by_evolve(
    rules: Rules[S, A, E], events: Sequence[E], recorded: Sequence[RecordedAction[A]]
) -> Generator[Redecided[A, E], None, S]:
    """``Records.redecide`` for a system whose states are cheap to evolve one event at a time: each recorded
    action decided against the state as recorded before it; the state moves on by the recorded events."""
    state = rules.initial_state()
    first = recorded[0].start if recorded else len(events)
    for event in events[:first]:
        state = rules.evolve(state, event)
    for step in recorded:
        try:
            outcome: tuple[E, ...] | RuleError = tuple(rules.decide(state, step.action))
        except RuleError as error:
            outcome = error
        yield Redecided(step.start, step.stop, step.seat, step.action, outcome)
        for event in events[step.start : step.stop]:
            state = rules.evolve(state, event)
    return state


def verify(system: GameSystem[S, A, E], events: Sequence[E]) -> str | None:
    """None when today's rules give exactly the recorded events: the opening from the recorded setup, then every
    recorded action; else the first divergence, in a sentence (event numbers 1-based)."""
    try:
        recorded = system.recorded_actions(events)
        setup = system.recorded_setup(events)
    except StreamError as error:
        return f"event {error.index + 1}: {error.message}"
    first = recorded[0].start if recorded else len(events)
    try:
        opening = system.start(setup)
    except RuleError as error:
        return f"event 1: today's rules refuse the setup: {error.message} ({error.code}, {error.rule})"
    if tuple(opening) != tuple(events[:first]):
        return f"events 1..{first}: the opening differs from what the recorded setup gives today"
    for step in system.redecide(events):
        if isinstance(step.outcome, RuleError):
            refusal = step.outcome
            return (f"event {step.start + 1}: {step.action!r} is now refused: {refusal.message} "
                    f"({refusal.code}, {refusal.rule})")
        if step.outcome != tuple(events[step.start : step.stop]):
            return f"events {step.start + 1}..{step.stop}: {step.action!r} now gives other events"
    return None


__all__ = [
    "actions_from","BotChoice", "PlayedGame", "play", "redecide_by_evolve", "seat_bots", "stalled_draw", "verify"]
