"""Art of War ended off the board: the scorekeeper's ``adjudicate`` (engine.adjudication) and the game's own rule
for time called (docs/art-of-war.md): the end-of-war count of §7.3 on the cards as they lie: more cards in the
kingdom wins; equal kingdoms: fewer cards in the graveyard; equal again: a draw."""

from __future__ import annotations

from engine.adjudication import Adjudicate, adjudicate
from engine.art_of_war.rules import end_of_war_winner
from engine.art_of_war.state import State
from engine.system import TimeRuling
from events.art_of_war import GameEnded


def on_time(state: State) -> TimeRuling:
    """Time called: §7.3's count on the state as it is."""
    seats = tuple(p.id for p in state.players)
    kingdoms = [len(p.kingdom) for p in state.players]
    graves = [len(p.graveyard) for p in state.players]
    winner = end_of_war_winner(state)
    if kingdoms[0] != kingdoms[1]:
        why = f"{winner} has more cards in its kingdom, {max(kingdoms)} to {min(kingdoms)} (§7.3)"
    elif winner is not None:
        why = (f"kingdoms level at {kingdoms[0]} cards; {winner} has fewer in its graveyard, {min(graves)} to "
               f"{max(graves)} (§7.3)")
    else:
        why = f"kingdoms level at {kingdoms[0]} cards and graveyards at {graves[0]}: a draw (§7.3)"
    return TimeRuling.of_winner(seats, winner, why)


def adjudicated(state: State, action: Adjudicate) -> GameEnded:
    """The ``game_ended`` of an adjudication (kingdoms and graveyards as they stand)."""
    adjudication = adjudicate(action, [p.id for p in state.players], state, lambda: on_time(state))
    return GameEnded(winner=adjudication.winner, reason="adjudicated",
                     kingdoms=tuple(len(p.kingdom) for p in state.players),
                     graveyards=tuple(len(p.graveyard) for p in state.players), adjudication=adjudication)


__all__ = ["adjudicated", "on_time"]
