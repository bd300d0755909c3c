"""What the replay side says of a game ended by ``adjudicate`` (engine.adjudication), the same for every system:
the line its ``game_ended`` is explained by, and the rule its cause cites."""

from __future__ import annotations

from engine.adjudication import RULE, result_text
from events import Adjudication

WHY = {
    "time": "time is called",
    "agreement": "the players agree",
    "stalled": "the game is stalled",
    "judge": "the judge rules",
    "correction": "the organiser corrects the result",  # after the game ended (issue 31): the last result counts
}


def adjudication_line(adjudication: Adjudication) -> str:
    """One line for the explanations: why, the result, and how it was reached (the system's time rule, with its
    reason; or the scorekeeper's word), then the note.

    ``time is called: p1 wins by the game's rule for time: p1 destroyed more cards (12 to 9)``
    ``the judge rules: p2 wins, as the scorekeeper records it (note: forfeit, round 2 table 3)``
    ``the organiser corrects the result: p1 wins (reason: conceded by mistake)``"""
    why = WHY.get(adjudication.reason, adjudication.reason)
    result = result_text(adjudication.placings)
    if adjudication.is_correction:
        return f"{why}: {result} (reason: {adjudication.note})"
    if adjudication.explanation is not None:
        line = f"{why}: {result} by the game's rule for time: {adjudication.explanation}"
    else:
        line = f"{why}: {result}, as the scorekeeper records it"
    if adjudication.note is not None:
        line += f" (note: {adjudication.note})"
    return line


ADJUDICATION_RULE = RULE  # the ``rule`` of an adjudicated game_ended's cause

__all__ = ["ADJUDICATION_RULE", "WHY", "adjudication_line"]
