"""HeroScape ended off the board: the scorekeeper's ``adjudicate`` (engine.adjudication) and the game's own rule for
time called (docs/heroscape.md): points on the map, as at the round limit: the army with more points of army cards
still on the map wins; equal points: a draw."""

from __future__ import annotations

from engine.adjudication import Adjudicate, adjudicate
from engine.heroscape.rules import points_winner
from engine.heroscape.state import PLAYERS, State, points_on_map
from engine.system import TimeRuling
from events.heroscape import GameEnded


def on_time(state: State) -> TimeRuling:
    """Time called: the round limit's ruling on the state as it is (points of army cards still on the map)."""
    seats = PLAYERS[: len(state.seats)]
    points = [points_on_map(state, i) for i in range(len(seats))]
    winner = points_winner(state)
    if winner is None:
        return TimeRuling.of_winner(seats, None, f"both armies have {points[0]} points on the map: a draw")
    return TimeRuling.of_winner(seats, winner, f"{winner} has more points on the map, {max(points)} to "
                                               f"{min(points)}")


def adjudicated(state: State, action: Adjudicate) -> GameEnded:
    """The ``game_ended`` of an adjudication (the points on the map as they stand)."""
    seats = PLAYERS[: len(state.seats)]
    adjudication = adjudicate(action, seats, state, lambda: on_time(state))
    return GameEnded(reason="adjudicated", winner=adjudication.winner,
                     points={p: points_on_map(state, i) for i, p in enumerate(seats)}, adjudication=adjudication)


__all__ = ["adjudicated", "on_time"]
