"""Explanations: for every event a one-line account a person reads at a glance, and its structured cause.

    p1 places Orc Ravager at D4
    Dwarf Marauder at D5 is destroyed: 9 > 4 (Orc Ravager NE 5, Goblin Shanker N 4)

``cause`` is the event's data (redacted for the view) plus ``rule``, the rule that decided it, for the API
and the replay page. Explanations respect views: a draw explained to the opponent says "p1 draws a card".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


def _explained(system_name: str, events: Sequence[Recorded[Any]], view: str) -> list[Explanation | None]:
    """Each event explained for ``view`` (from seq 1, folding as it goes); None for an event the view may not see
    at all (``Views.redacted_event`` is None: it is not explained either)."""
    system = get_system(system_name)
    parts = get_plugin(system_name)
    state = system.initial_state()
    out: list[Explanation | None] = []
    for recorded in events:
        if view != "all" and parts.views.redacted_event(recorded.event, view) is None:
            out.append(None)
        else:
            line, cause = parts.explanations.explain(state, recorded.event, view)
            out.append(Explanation(seq=recorded.seq, text=line, cause=cause))
        state = system.evolve(state, recorded.event)
    return out


def explain_game(system_name: str, events: Iterable[Recorded[Any]], view: str = "all") -> list[Explanation]:
    """Explain a whole stream (from seq 1), folding as it goes: every event ``view`` may see."""
    return [x for x in _explained(system_name, list(events), view) if x is not None]


def explain_actions(system_name: str, events: Iterable[Recorded[Any]], view: str = "all") -> list[Explanation]:
    """One line per action (its events' lines joined by "; "), as a commentator says it:
    "p1 places Orc Ravager at D4; Dwarf Marauder at D5 is destroyed: 9 > 4 (Orc Ravager NE 5, Goblin Shanker N 4)".
    ``seq`` is the action's first event ``view`` sees; ``cause`` holds each seen event's cause under ``events``. The
    opening events (setup) are one entry. The actions are the system's ``recorded_actions``
    (engine.system.Records); a stream no actions can have produced (StreamError) is explained event by event."""
    recorded = list(events)
    per_event = _explained(system_name, recorded, view)
    if not recorded:
        return []
    try:
        actions = get_system(system_name).recorded_actions([r.event for r in recorded])
    except StreamError:
        return [x for x in per_event if x is not None]
    opening = actions[0].start if actions else len(recorded)
    spans = [(0, opening)] + [(a.start, a.stop) for a in actions]
    out = []
    for start, stop in spans:
        seen = [x for x in per_event[start:stop] if x is not None]
        if seen:
            out.append(Explanation(seq=seen[0].seq, text="; ".join(x.text for x in seen),
                                   cause={"events": [x.cause for x in seen]}))
    return out
