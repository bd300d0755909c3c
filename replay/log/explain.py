"""Explanations: for every event a one-line account a person reads at a glance, and its structured cause.

    p1 places Orc Ravager at D4
    Dwarf Marauder at D5 is destroyed: 9 > 4 (Orc Ravager NE 5, Goblin Shanker N 4)

``cause`` is the event's data (redacted for the view) plus ``rule``, the rule that decided it, for the API
and the replay page. Explanations respect views: a draw explained to the opponent says "p1 draws a card".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from engine.errors import StreamError
from engine.systems import get_system
from events import Recorded
from replay.systems import get_plugin


class Explanation(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    text: str
    cause: dict[str, Any]


def explain(system_name: str, state_before: Any, recorded: Recorded[Any], view: str = "all") -> Explanation:
    """Explain one stored event, given the state just before it."""
    line, cause = get_plugin(system_name).explanations.explain(state_before, recorded.event, view)
    return Explanation(seq=recorded.seq, text=line, cause=cause)


def explain_game(system_name: str, events: Iterable[Recorded[Any]], view: str = "all") -> list[Explanation]:
    """Explain a whole stream (from seq 1), folding as it goes."""
    system = get_system(system_name)
    explainer = get_plugin(system_name).explanations
    state = system.initial_state()
    out = []
    for recorded in events:
        line, cause = explainer.explain(state, recorded.event, view)
        out.append(Explanation(seq=recorded.seq, text=line, cause=cause))
        state = system.evolve(state, recorded.event)
    return out


def explain_actions(system_name: str, events: Iterable[Recorded[Any]], view: str = "all") -> list[Explanation]:
    """One line per action (its events' lines joined by "; "), as a commentator says it:
    "p1 places Orc Ravager at D4; Dwarf Marauder at D5 is destroyed: 9 > 4 (Orc Ravager NE 5, Goblin Shanker N 4)".
    ``seq`` is the action's first event; ``cause`` holds each event's cause under ``events``. The opening events
    (setup) are one entry. The actions are the system's ``recorded_actions`` (engine.system.Records); a stream no
    actions can have produced (StreamError) is explained event by event."""
    recorded = list(events)
    per_event = explain_game(system_name, recorded, view)
    if not recorded:
        return per_event
    try:
        actions = get_system(system_name).recorded_actions([r.event for r in recorded])
    except StreamError:
        return per_event
    opening = actions[0].start if actions else len(recorded)
    spans = [(0, opening)] + [(a.start, a.stop) for a in actions]
    return [
        Explanation(
            seq=per_event[start].seq,
            text="; ".join(x.text for x in per_event[start:stop]),
            cause={"events": [x.cause for x in per_event[start:stop]]},
        )
        for start, stop in spans
        if stop > start
    ]
