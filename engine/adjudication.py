"""Ending a game off the board: the scorekeeper's ``adjudicate`` action, written once for every system
(docs/contract.md, "Ending a game by adjudication").

    {"type": "adjudicate", "winner"?: "p1" | "draw" | <a team>, "placings"?: [["p2"], ["p1", "p3"]],
     "reason": "time" | "agreement" | "stalled" | "judge", "note"?: "..."}

A system adds ``Adjudicate`` to its action union (``parse_action`` takes it, ``legal_actions`` leaves it out, like a
concession), hands it to ``adjudicate`` in its ``decide`` with its seats and its own rule for time called
(``Results.on_time``), and records the ``events.Adjudication`` it gets back in its ``game_ended`` (reason
``adjudicated``), which ``Outcome.adjudicated`` reads. Its ``recorded_actions`` recover the action from that event
(``recorded_adjudication``): the scorekeeper took it (``SCOREKEEPER``), not a seat.

The checks (each refusal a ``RuleError`` citing the rule ``adjudication``): the game has started and is not over;
``reason`` is one of the four; ``note`` is one line of at most ``NOTE_LIMIT`` characters; a result is named
(``winner`` or ``placings``) unless the reason is ``time``, when the system's time rule decides; ``winner`` is a
seat, a team of the game, or ``draw``; ``placings`` hold every seat once in non-empty groups, a team's seats
together; given both, they agree (``draw`` is one group; a winner's seats, or its team's, are the first group).

**A corrected result** (issue 31; docs/contract.md, "A corrected result"): ``Adjudicate`` with reason
``correction`` (``correction``) corrects the result of a game that is **over**, as a tournament's organiser does with
a reason: a result is named, the note is the reason (required), and the ``Adjudication`` records ``by: organiser``.
Its ``game_ended`` follows the one it corrects (the last one counts: one result per game; the stream keeps both).
Only a tournament's correction builds it (``correction``): ``parse_adjudication``, which reads what clients send,
refuses the reason. A stream may so end in a run of adjudicated ``game_ended`` events: each is an action of its own
(``with_adjudication``), re-decided like any other (``warlog verify``, import).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast

import msgspec

from engine.errors import RuleError
from engine.system import RecordedAction, TimeRuling
from events import ADJUDICATION_REASONS, CORRECTION, Adjudication

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")

SCOREKEEPER = "scorekeeper"  # who adjudicates: the seat of an adjudication's ``RecordedAction``
DRAW = "draw"
RULE = "adjudication"  # the rule every refusal cites: docs/contract.md, "Ending a game by adjudication"
ORGANISER = "organiser"  # who corrects a result (``Adjudication.by`` of a correction)
NOTE_LIMIT = 500  # characters


class Adjudicate(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="adjudicate",
                 forbid_unknown_fields=True, omit_defaults=True):
    """The scorekeeper ends the game with a result (docs/contract.md): ``winner`` (a seat, a team, or ``draw``)
    and/or ``placings`` (groups of seats in finishing order); with ``reason`` ``time`` and neither, the system's
    own rule for time called decides. No ``player``: the scorekeeper acts, not a seat."""

    reason: str
    winner: str | None = None
    placings: tuple[tuple[str, ...], ...] | None = None
    note: str | None = None


def acting_seat(action: Any) -> str:
    """Who takes ``action``: its ``player``, or the scorekeeper for an adjudication."""
    return SCOREKEEPER if isinstance(action, Adjudicate) else str(action.player)


def parse_adjudication(data: Any) -> Adjudicate:
    """Plain data -> ``Adjudicate``; RuleError ``malformed`` naming what is wrong with its shape, ``unknown_reason``
    for a ``correction`` (a tournament's organiser corrects a result: ``correction``, never a client's action)."""
    if isinstance(data, Adjudicate):
        return data
    try:
        action = msgspec.convert(data, Adjudicate)
    except msgspec.ValidationError as error:
        raise RuleError("malformed", "contract", f"malformed adjudicate action: {error}") from None
    if action.reason == CORRECTION:
        raise RuleError("unknown_reason", RULE, "a result is corrected by the tournament's organiser, with a reason "
                        "(POST /tournaments/{id}/rounds/{r}/tables/{t}/correction), not by an adjudicate action; an "
                        f"adjudication's reason is one of {', '.join(ADJUDICATION_REASONS)}")
    return action


def correction(placings: Sequence[Sequence[str]], reason: str) -> Adjudicate:
    """The action that corrects a finished game's result to ``placings``, for ``reason`` (the organiser's words:
    one line, at most ``NOTE_LIMIT`` characters)."""
    return Adjudicate(reason=CORRECTION, placings=tuple(tuple(group) for group in placings), note=reason)


def is_correction(action: Any) -> bool:
    """Whether a typed action is a correction (``correction``)."""
    return isinstance(action, Adjudicate) and action.reason == CORRECTION


def is_adjudication(data: Any) -> bool:
    """Whether plain action data (or a typed action) is an ``adjudicate``."""
    return isinstance(data, Adjudicate) or (isinstance(data, dict) and data.get("type") == "adjudicate")


class Phased(Protocol):
    """What ``adjudicate`` reads of a state (every system's has it): ``phase`` (``setup`` before the start, ``over``
    at the end) and the ``end_reason`` of a game that is over."""

    @property
    def phase(self) -> str: ...
    @property
    def end_reason(self) -> str | None: ...


def adjudicate(
    action: Adjudicate,
    seats: Sequence[str],
    state: Phased,
    time_rule: Callable[[], TimeRuling],
    teams: Mapping[str, Sequence[str]] | None = None,
) -> Adjudication:
    """Check ``action`` against the game in ``state`` (``seats`` in seating order; ``teams``: each team's seats,
    where the game has teams) and give the adjudication its ``game_ended`` records. ``time_rule``: the system's
    ``on_time`` of ``state``."""
    if action.reason == CORRECTION:
        return _corrected(action, seats, state, teams or {})
    if state.phase == "setup":
        raise RuleError("not_started", RULE, "the game has not started: there is no result to adjudicate yet")
    if state.phase == "over":
        raise RuleError("game_over", RULE, f"the game is over ({state.end_reason}): its result stands")
    if action.reason not in ADJUDICATION_REASONS:
        raise RuleError("unknown_reason", RULE, f"an adjudication's reason is one of {', '.join(ADJUDICATION_REASONS)}"
                        f", not {action.reason!r}")
    _check_note(action.note)
    sides = _sides(seats, teams or {})
    if action.winner is None and action.placings is None:
        if action.reason != "time":
            raise RuleError("no_result", RULE, f"name the result of a game adjudicated for {action.reason}: a winner "
                            "(a seat or draw) or the placings (only time called without a result leaves it to the "
                            "game's own rule)")
        ruling = time_rule()
        return Adjudication(reason=action.reason, placings=_placings(ruling.placings, seats, sides), note=action.note,
                            explanation=ruling.explanation)
    placings = None if action.placings is None else _placings(action.placings, seats, sides)
    if action.winner is not None:
        named = _of_winner(action.winner, seats, sides, teams or {})
        if placings is not None and placings != named and not _agree(placings, named):
            raise RuleError("winner_mismatch", RULE, f"the winner {action.winner!r} and the placings "
                            f"{_text(placings)} disagree: a draw is one group, a winner's seats are the first group")
        placings = placings or named
    assert placings is not None
    return Adjudication(reason=action.reason, placings=placings, note=action.note)


def _corrected(action: Adjudicate, seats: Sequence[str], state: Phased,
               teams: Mapping[str, Sequence[str]]) -> Adjudication:
    """A correction checked (the module's docstring): the game is over, a result is named, the reason given."""
    if state.phase != "over":
        raise RuleError("not_over", RULE, "only a finished game's result is corrected: this game is still being "
                        "played (end it first: adjudicate, or enter the table's result)")
    if action.note is None or not action.note.strip():
        raise RuleError("reason_required", RULE, "a correction needs a reason: say why the result changes")
    _check_note(action.note)
    if action.winner is None and action.placings is None:
        raise RuleError("no_result", RULE, "a correction names the result: a winner (a seat or draw) or the placings")
    sides = _sides(seats, teams)
    placings = None if action.placings is None else _placings(action.placings, seats, sides)
    if action.winner is not None:
        named = _of_winner(action.winner, seats, sides, teams)
        if placings is not None and placings != named and not _agree(placings, named):
            raise RuleError("winner_mismatch", RULE, f"the winner {action.winner!r} and the placings "
                            f"{_text(placings)} disagree: a draw is one group, a winner's seats are the first group")
        placings = placings or named
    assert placings is not None
    return Adjudication(reason=CORRECTION, placings=placings, note=action.note, by=ORGANISER)


def recorded_adjudication(adjudication: Adjudication) -> Adjudicate:
    """The action that recorded ``adjudication`` (a ``Records.recorded_actions`` step): the placings it named, or
    none where the time rule decided them (re-deciding it asks the rule again)."""
    if adjudication.named:
        return Adjudicate(reason=adjudication.reason, placings=adjudication.placings, note=adjudication.note)
    return Adjudicate(reason=adjudication.reason, note=adjudication.note)


def adjudication_of(event: Any) -> Adjudication | None:
    """The adjudication a ``game_ended`` records (None for another event, or a game ended by the rules)."""
    found: Adjudication | None = event.adjudication if type(event).tag_name() == "game_ended" else None
    return found


def with_adjudication(events: Sequence[E], recorded_actions: Callable[[Sequence[E]], Sequence[RecordedAction[A]]]
                      ) -> list[RecordedAction[A | Adjudicate]]:
    """A system's ``Records.recorded_actions`` (of its players' actions) for a stream that may end by the
    scorekeeper's adjudication: an adjudicated ``game_ended`` is always among the last events (the game's end, then
    any corrections of its result), each an action of its own."""
    first = len(events)  # the run of adjudicated game_ended events the stream ends in starts here
    while first and adjudication_of(events[first - 1]) is not None:
        first -= 1
    # RecordedAction[A] is a RecordedAction[A | Adjudicate] (a NamedTuple's type variable is invariant to mypy)
    out = cast(list[RecordedAction[A | Adjudicate]], list(recorded_actions(events[:first])))
    for i in range(first, len(events)):
        adjudication = adjudication_of(events[i])
        assert adjudication is not None
        out.append(RecordedAction(i, i + 1, SCOREKEEPER, recorded_adjudication(adjudication)))
    return out


def decide_or_adjudicate(
    decide: Callable[[S, A], tuple[E, ...]], parse_action: Callable[[Any], A], adjudicated: Callable[[S, Adjudicate], E]
) -> Callable[[S, A | Adjudicate], tuple[E, ...]]:
    """A system's ``decide`` of its players' actions with the scorekeeper's ``Adjudicate`` added: the action as given
    (or as JSON data, which it parses); an adjudication ends the game with the ``game_ended`` of ``adjudicated``
    (which checks it by ``adjudicate``)."""
    parse = parse_or_adjudicate(parse_action)

    def decide_action(state: S, action: A | Adjudicate) -> tuple[E, ...]:
        typed = parse(action)
        if isinstance(typed, Adjudicate):
            return (adjudicated(state, typed),)
        return decide(state, typed)

    return decide_action


def parse_or_adjudicate(parse_action: Callable[[Any], A]) -> Callable[[Any], A | Adjudicate]:
    """A system's ``parse_action`` of its players' actions with the scorekeeper's ``Adjudicate`` added."""

    def parse(data: Any) -> A | Adjudicate:
        return parse_adjudication(data) if is_adjudication(data) else parse_action(data)

    return parse


def recorded_with_adjudication(
    recorded_actions: Callable[[Sequence[E]], Sequence[RecordedAction[A]]]
) -> Callable[[Sequence[E]], list[RecordedAction[A | Adjudicate]]]:
    """A system's ``recorded_actions`` of its players' actions for streams that may end by an adjudication
    (``with_adjudication``)."""

    def recorded(events: Sequence[E]) -> list[RecordedAction[A | Adjudicate]]:
        return with_adjudication(events, recorded_actions)

    return recorded


def result_text(placings: Sequence[Sequence[str]]) -> str:
    """Placings as people read them: ``p1 wins``, ``a draw``, ``p2, then p1 and p3``."""
    if len(placings) == 1:
        return "a draw"
    first = " and ".join(placings[0])
    if len(placings) == 2:
        return f"{first} win{'s' if len(placings[0]) == 1 else ''}"
    return f"{first} first, then " + ", then ".join(" and ".join(group) for group in placings[1:])


# -- checks ---------------------------------------------------------------------------------------------------

_BREAKING = frozenset(("Cc", "Zl", "Zp"))  # control characters, line and paragraph separators


def _check_note(note: str | None) -> None:
    if note is None:
        return
    if not note.strip():
        raise RuleError("bad_note", RULE, "an adjudication's note says something (leave it out otherwise)")
    if len(note) > NOTE_LIMIT:
        raise RuleError("bad_note", RULE, f"an adjudication's note is at most {NOTE_LIMIT} characters, not "
                        f"{len(note)}")
    for ch in note:
        if unicodedata.category(ch) in _BREAKING:
            raise RuleError("bad_note", RULE, f"an adjudication's note is one line of text: it holds U+{ord(ch):04X}")


def _sides(seats: Sequence[str], teams: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """Each seat's side: its team's seats, or the seat alone."""
    side: dict[str, tuple[str, ...]] = {seat: (seat,) for seat in seats}
    for members in teams.values():
        for seat in members:
            side[seat] = tuple(members)
    return side


def _in_order(group: Sequence[str], seats: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(group, key=seats.index))


def _placings(given: Sequence[Sequence[str]], seats: Sequence[str],
              sides: Mapping[str, tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """``given`` checked (every seat once, non-empty groups, a team's seats together), each group in seating
    order."""
    placed = [seat for group in given for seat in group]
    unknown = [seat for seat in placed if seat not in seats]
    if unknown:
        raise RuleError("unknown_seat", RULE, f"the placings name {unknown[0]!r}, not a seat of this game "
                        f"({', '.join(seats)})")
    if any(not group for group in given) or sorted(placed) != sorted(seats):
        raise RuleError("bad_placings", RULE, f"the placings hold every seat of the game ({', '.join(seats)}) exactly "
                        f"once, in non-empty groups (tied seats together); not {_text(given)}")
    for group in given:
        for seat in group:
            if not set(sides[seat]) <= set(group):
                raise RuleError("team_split", RULE, f"a team finishes together: {', '.join(sides[seat])} are placed "
                                f"apart in {_text(given)}")
    return tuple(_in_order(group, seats) for group in given)


def _of_winner(winner: str, seats: Sequence[str], sides: Mapping[str, tuple[str, ...]],
               teams: Mapping[str, Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    if winner == DRAW:
        return (tuple(seats),)
    if winner in teams:
        first = _in_order(teams[winner], seats)
    elif winner in seats:
        first = sides[winner]
    else:
        named = f", a team ({', '.join(teams)})" if teams else ""
        raise RuleError("unknown_winner", RULE, f"the winner is a seat of this game ({', '.join(seats)}){named} or "
                        f"draw, not {winner!r}")
    return first, tuple(seat for seat in seats if seat not in first)


def _agree(placings: tuple[tuple[str, ...], ...], named: tuple[tuple[str, ...], ...]) -> bool:
    """Placings agree with a named winner: both a draw, or the winner's seats are the first group."""
    if len(named) == 1:
        return len(placings) == 1
    return len(placings) > 1 and set(placings[0]) == set(named[0])


def _text(placings: Sequence[Sequence[str]]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, group)) + "]" for group in placings) + "]"


__all__ = [
    "DRAW",
    "NOTE_LIMIT",
    "ORGANISER",
    "RULE",
    "SCOREKEEPER",
    "Adjudicate",
    "acting_seat",
    "adjudicate",
    "adjudication_of",
    "correction",
    "decide_or_adjudicate",
    "is_adjudication",
    "is_correction",
    "parse_adjudication",
    "parse_or_adjudicate",
    "recorded_adjudication",
    "recorded_with_adjudication",
    "result_text",
    "with_adjudication",
]
