"""Steps: for each event of a range, the state after it and its explanation, in one view and one fold.

What a replay viewer steps through (the browser's replay page reads them from ``GET /games/{id}/steps``): one
read of the log and one fold serve a whole range, where a state per request would fold the prefix again each
time. A step whose event the view may not see at all has no explanation (``None``); its state is still shown. Each
step names its turn as the system counts them (``GameSystem.turn``, the number game listings and statistics use).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from engine.systems import get_system
from events import Recorded
from replay.log.explain import Explanation
from replay.log.views import ALL, check_view
from replay.systems import get_plugin


class Step(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    turn: int  # the system's turn (or round) after the event (``GameSystem.turn``): the replay page groups by it
    state: dict[str, Any]
    explanation: Explanation | None


def game_steps(system_name: str, events: Iterable[Recorded[Any]], view: str, from_seq: int = 1) -> list[Step]:
    """The steps ``from_seq`` .. the last of ``events`` (a stream from seq 1, folded as it goes) in ``view``."""
    check_view(view)
    system = get_system(system_name)
    parts = get_plugin(system_name)
    state = system.initial_state()
    out: list[Step] = []
    for recorded in events:
        explanation = None
        if recorded.seq >= from_seq and (view == ALL or parts.views.redacted_event(recorded.event, view) is not None):
            line, cause = parts.explanations.explain(state, recorded.event, view)
            explanation = Explanation(seq=recorded.seq, text=line, cause=cause)
        state = system.evolve(state, recorded.event)
        if recorded.seq >= from_seq:
            shown = {**parts.views.state_view(state, view), "seq": recorded.seq}
            out.append(Step(seq=recorded.seq, turn=system.turn(state), state=shown, explanation=explanation))
    return out
