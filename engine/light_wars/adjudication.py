"""Light Wars ended off the board: the scorekeeper's ``adjudicate`` (engine.adjudication) and the game's own rule
for time called (docs/light-wars.md): §5.3's score rule, as at the end of the last turn: the higher score (the cost
of the opponent's removed units) wins; equal scores: more bases in stock; equal again: a draw."""

from __future__ import annotations

from engine.adjudication import Adjudicate, adjudicate
from engine.light_wars.rules import score_winner
from engine.light_wars.state import PLAYERS, State
from engine.system import TimeRuling
from events.light_wars import GameEnded


def on_time(state: State) -> TimeRuling:
    """Time called: §5.3's score rule on the state as it is."""
    seats = PLAYERS[: len(state.seats)]
    (s1, s2), (b1, b2) = state.scores, state.stock
    winner = score_winner(state)
    if s1 != s2:
        why = f"{winner} scores more, {max(s1, s2)} to {min(s1, s2)} (§5.3)"
    elif winner is not None:
        why = f"scores level at {s1}; {winner} has more bases in stock, {max(b1, b2)} to {min(b1, b2)} (§5.3)"
    else:
        why = f"scores level at {s1} and bases in stock at {b1}: a draw (§5.3)"
    return TimeRuling.of_winner(seats, winner, why)


def adjudicated(state: State, action: Adjudicate) -> GameEnded:
    """The ``game_ended`` of an adjudication (scores and stock as they stand)."""
    seats = PLAYERS[: len(state.seats)]
    adjudication = adjudicate(action, seats, state, lambda: on_time(state))
    return GameEnded(reason="adjudicated", winner=adjudication.winner,
                     scores={p: state.scores[i] for i, p in enumerate(seats)},
                     stock={p: state.stock[i] for i, p in enumerate(seats)}, adjudication=adjudication)


__all__ = ["adjudicated", "on_time"]
