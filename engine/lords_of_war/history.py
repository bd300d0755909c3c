"""A recorded game read back: the setup that started it (``recorded_setup``), each action recovered from its events
(``recorded_actions``), decided again with today's rules (``redecide``) and checked to give the same events
(``verify``: ``warlog verify``; the property tests; the benchmark)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from engine.adjudication import recorded_adjudication
from engine.errors import RuleError, StreamError
from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Recall, Shoot
from engine.lords_of_war.armies import setup_from_started
from engine.lords_of_war.rules import decide
from engine.lords_of_war.state import State, apply, freeze, initial_state, thaw
from events.lords_of_war import (
    CardDrawn,
    Conceded,
    GameEnded,
    GameStarted,
    HandDealt,
    HandRevealed,
    Placed,
    Recalled,
    Shot,
)

OPENING = (GameStarted, HandDealt)
ACTION_STARTS = (HandRevealed, Placed, CardDrawn, Recalled, Conceded)
# The same, as sets of exact types: recorded_actions looks at every event of a game (the projection reads every
# game through it, the bulk import re-decides every game), and a set lookup of ``type(event)`` costs a fraction of
# an isinstance test against a tuple of five (events are exact msgspec Structs: the codec never makes subclasses).
_OPENING = frozenset(OPENING)
_ACTION_STARTS = frozenset(ACTION_STARTS)

# (first event index, end index, the action, today's events or the RuleError today's rules raise)
Redecided = tuple[int, int, LordsOfWarAction, "tuple[Any, ...] | RuleError"]


def recorded_setup(events: Sequence[Any]) -> dict[str, Any]:
    """The setup (POST /games body) that started a recorded game; raises StreamError."""
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a Lords of War stream starts with game_started")
    return setup_from_started(events[0])


def recorded_actions(events: Sequence[Any], table: bool | None = None) -> list[tuple[int, int, LordsOfWarAction]]:
    """Each action of a recorded game as (first event index, end index, action); raises StreamError.

    The opening events (``game_started``, ``hand_dealt``) belong to no action. After them, an action's events
    start at ``hand_revealed`` or ``placed`` (a placement; its ``shot`` events give the shots), ``card_drawn``,
    ``recalled`` or ``conceded``, or are an adjudicated ``game_ended`` (the scorekeeper's ``adjudicate``, alone);
    every other event is a consequence of the action before it (docs/events.md).
    """
    if table is None:
        table = bool(events) and isinstance(events[0], GameStarted) and events[0].variant.mode == "table"
    out: list[tuple[int, int, LordsOfWarAction]] = []
    n = len(events)
    i = 0
    while i < n and type(events[i]) in _OPENING:
        i += 1
    while i < n:
        start = i
        event = events[i]
        reveal = None
        if type(event) is HandRevealed:
            placed = events[i + 1] if i + 1 < n else None
            if type(placed) is not Placed or placed.player != event.player:
                raise StreamError(i, f"event {i + 1}: hand_revealed is not followed by that player's placement")
            reveal = tuple(event.cards) if table else None
            i += 1
            event = placed
        i += 1
        action: LordsOfWarAction
        match event:
            case Placed():
                shots = []
                while i < n and type(shot := events[i]) is Shot:
                    shots.append(Shoot(shooter=shot.shooter_square, target=shot.target_square))
                    i += 1
                action = Place(player=event.player, card=event.card, square=event.square, shots=tuple(shots),
                               reveal=reveal)
            case CardDrawn():
                action = Draw(player=event.player, card=event.card if table else None)
            case Recalled():
                action = Recall(player=event.player, square=event.square)
            case Conceded():
                action = Concede(player=event.player)
            case GameEnded(adjudication=adjudication) if adjudication is not None:
                action = recorded_adjudication(adjudication)
            case _:
                raise StreamError(start, f"event {start + 1}: {type(event).tag_name()} does not start an action")
        while i < n and (kind := type(events[i])) not in _ACTION_STARTS:
            if kind is GameEnded and events[i].adjudication is not None:
                break  # the scorekeeper's adjudication: an action of its own
            if kind in _OPENING:
                raise StreamError(i, f"event {i + 1}: {kind.tag_name()} after the opening")
            i += 1
        out.append((start, i, action))
    return out


def redecide(events: Sequence[Any], *, full_check: bool = False) -> Generator[Redecided, None, State]:
    """Each recorded action, decided again with today's rules against the state as recorded before it.

    Yields ``(start, end, action, outcome)``: ``outcome`` is the events today's rules give, or the RuleError
    they raise. The state moves on by the *recorded* events, so history stays as it was recorded. Returns (the
    generator's value) the state after every event: the bulk import needs it and need not fold again. Raises
    StreamError for a stream no actions can have produced.
    """
    actions = recorded_actions(events)
    # One working copy of the state for the whole game (fold's way: thaw once), moved on by each action's recorded
    # events; the state each action is decided against is frozen from it. Issue 7: the bulk import re-decides every
    # action of every game, and a frozen State per recorded event (evolve's way) cost a fifth of that.
    work = thaw(initial_state())
    for event in events[: actions[0][0] if actions else len(events)]:
        apply(work, event)
    for start, end, action in actions:
        try:
            outcome: tuple[Any, ...] | RuleError = decide(freeze(work), action, full_check=full_check)
        except RuleError as exc:
            outcome = exc
        yield start, end, action, outcome
        for event in events[start:end]:
            apply(work, event)
    return freeze(work)


def verify(events: Sequence[Any], *, full_check: bool = False) -> str | None:
    """None when today's rules re-decide every recorded action to exactly the recorded events; else a
    description of the first divergence."""
    for start, end, action, outcome in redecide(events, full_check=full_check):
        if isinstance(outcome, RuleError):
            return f"event {start}: {action!r} is now refused: {outcome.code} ({outcome.rule}): {outcome.message}"
        recorded = tuple(events[start:end])
        if outcome != recorded:
            return f"event {start}: {action!r} now gives {outcome!r}, recorded {recorded!r}"
    return None


__all__ = [
    "ACTION_STARTS", "OPENING", "Redecided", "StreamError", "recorded_actions", "recorded_setup", "redecide", "verify",
]
