"""L5R ended off the board: the scorekeeper's ``adjudicate`` (engine.adjudication) and the game's own rule for time
called (docs/l5r.md): the player with more provinces standing wins; equal: the higher family honour; equal again: a
draw."""

from __future__ import annotations

from engine.adjudication import Adjudicate, adjudicate
from engine.l5r.state import State
from engine.system import TimeRuling
from events.l5r import GameEnded


def on_time(state: State) -> TimeRuling:
    """Time called: provinces standing, then family honour, else a draw."""
    players = state.players
    seats = tuple(p.id for p in players)
    standing = [len(p.provinces) for p in players]
    honor = [p.honor for p in players]
    if standing[0] != standing[1]:
        i = 0 if standing[0] > standing[1] else 1
        return TimeRuling.of_winner(seats, seats[i], f"{seats[i]} has more provinces standing, {standing[i]} to "
                                                     f"{standing[1 - i]}")
    if honor[0] != honor[1]:
        i = 0 if honor[0] > honor[1] else 1
        return TimeRuling.of_winner(seats, seats[i], f"provinces standing level at {standing[0]}; {seats[i]} has "
                                                     f"the higher family honour, {honor[i]} to {honor[1 - i]}")
    return TimeRuling.of_winner(seats, None, f"provinces standing level at {standing[0]} and family honour at "
                                             f"{honor[0]}: a draw")


def adjudicated(state: State, action: Adjudicate) -> GameEnded:
    """The ``game_ended`` of an adjudication (family honour as it stands)."""
    adjudication = adjudicate(action, [p.id for p in state.players], state, lambda: on_time(state))
    return GameEnded(winner=adjudication.winner, reason="adjudicated", honor=tuple(p.honor for p in state.players),
                     adjudication=adjudication)


__all__ = ["adjudicated", "on_time"]
