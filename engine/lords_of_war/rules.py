"""The rules: ``decide(state, action) -> events`` (work in progress)."""

from __future__ import annotations

from engine.errors import RuleError
from engine.lords_of_war.cards import CARDS
from engine.lords_of_war.geometry import NEIGHBOUR_DELTAS

Board = dict[int, tuple[str, int]]


def melee_damage(board: Board, k: int) -> int:
    """Sum of the arrows of adjacent enemy units pointing at the unit on ``k`` (§5.2)."""
    owner = board[k][1]
    total = 0
    for d in NEIGHBOUR_DELTAS:
        unit = board.get(k + d)
        if unit is not None and unit[1] != owner:
            total += CARDS[unit[0]].points[unit[1]].get(-d, 0)
    return total


def decide(state, action):
    raise RuleError("not_implemented", "-", "decide is being written")


def legal_actions(state):
    return ()
