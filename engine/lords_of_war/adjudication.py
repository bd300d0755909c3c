"""Lords of War ended off the board: the scorekeeper's ``adjudicate`` (engine.adjudication) and the game's own rule
for time called (docs/rulings.md, "Time called"): the side that destroyed more cards wins,
then the side that destroyed more commanders, else a draw (position kills count, as for §7's targets; §10: a
team's cards and commanders are its seats' together)."""

from __future__ import annotations

from typing import Any

from engine.adjudication import Adjudicate, adjudicate
from engine.lords_of_war.seating import SEAT_INDEX, SEAT_NAMES
from engine.system import TimeRuling
from events.lords_of_war import GameEnded


def on_time(state: Any) -> TimeRuling:
    """Time called (a ``State`` or fold's working copy): more cards destroyed, then more commanders, else a draw."""
    layout = state.layout
    names = [("team " if layout.is_teams else "") + layout.side_name(side) for side in (0, 1)]
    kills, commanders = state.kills, state.commanders
    if kills[0] != kills[1]:
        side = 0 if kills[0] > kills[1] else 1
        why = f"{names[side]} destroyed more cards ({kills[side]} to {kills[1 - side]})"
    elif commanders[0] != commanders[1]:
        side = 0 if commanders[0] > commanders[1] else 1
        why = (f"both destroyed {kills[0]} cards; {names[side]} destroyed more commanders "
               f"({commanders[side]} to {commanders[1 - side]})")
    else:
        seats = SEAT_NAMES[: layout.seats]
        return TimeRuling((seats,), f"both destroyed {kills[0]} cards and {commanders[0]} commanders: a draw")
    return TimeRuling((layout.members(side), layout.members(1 - side)), why)


def adjudicated(state: Any, action: Adjudicate) -> GameEnded:
    """The ``game_ended`` of an adjudication: its winner the winning side (a seat, or a team §10) or ``draw``."""
    layout = state.layout
    teams = {layout.side_name(side): layout.members(side) for side in (0, 1)} if layout.is_teams else None
    adjudication = adjudicate(action, SEAT_NAMES[: layout.seats], state, lambda: on_time(state), teams=teams)
    placings = adjudication.placings
    winner = layout.side_name(layout.side[SEAT_INDEX[placings[0][0]]]) if len(placings) > 1 else "draw"
    return GameEnded(winner=winner, reason="adjudicated", adjudication=adjudication)


__all__ = ["adjudicated", "on_time"]
