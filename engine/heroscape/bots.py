"""Seeded bots that play only legal actions (``legal_actions``); chance only from ``engine.prng``.

- ``random``: a kind of action first (move, attack, end the turn, ...: uniform over the kinds the state allows),
  then one of that kind uniformly, so attacking and ending the turn are not drowned by the many moves.
- ``greedy``: order markers 1-2-3 on its strongest cards by points still standing; attacks with the most expected
  wounds first; otherwise moves each figure of the turn towards the nearest enemy (preferring a glyph, then higher
  ground), rolls for Berserker Charge whenever it may, and ends the turn; a fair die of its own at a
  table.
"""

from __future__ import annotations

from engine.heroscape import geometry
from engine.heroscape.actions import Attack, Charge, EndTurn, HeroScapeAction, Markers, Move, Place, Roll
from engine.heroscape.rules import declare, legal_actions
from engine.heroscape.state import INDEX, MARKERS, State, alive_cards, board, card_of, hexes_of
from engine.prng import SplitMix64


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> HeroScapeAction:
        actions = legal_actions(state, seat)
        kinds: dict[str, list[HeroScapeAction]] = {}
        for a in actions:
            kinds.setdefault(type(a).__name__, []).append(a)
        names = sorted(kinds)
        pool = kinds[names[self.rng.below(len(names))]]
        return pool[self.rng.below(len(pool))]


def _expected(state: State, attack: Attack) -> float:
    """Expected wounds: a combat die is a skull half the time, a shield a third of the time (§1)."""
    owner = INDEX[attack.player]
    f = next(x for x in state.figures if x.owner == owner and x.id == attack.figure)
    declared = declare(state, f, attack.target, attack.special, attack.referee)
    total = 0.0
    for t in declared.targets:
        value = max(0.0, declared.dice / 2 - t.dice / 3)
        total += value if t.player != attack.player else -value
    return total


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> HeroScapeAction:
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError(f"{seat} has no legal action")
        first = actions[0]
        if isinstance(first, Roll):
            count = len(first.values)
            sides = 20 if state.due and state.due[0].die == "d20" else 6
            return Roll(player=seat, values=tuple(self.rng.below(sides) + 1 for _ in range(count)))
        if isinstance(first, Place):
            return first
        if isinstance(first, Markers):
            owner = INDEX[seat]
            cards = sorted(alive_cards(state, owner), key=lambda k: -card_of(state, owner, k).points)
            picks = [cards[min(i, len(cards) - 1)] for i in range(3)]
            return Markers(player=seat, markers=dict(zip(MARKERS, [*picks, cards[-1]], strict=True)))
        attacks = [a for a in actions if isinstance(a, Attack)]
        if attacks:
            best = max(attacks, key=lambda a: (_expected(state, a), a.special is not None))
            if _expected(state, best) > 0:
                return best
        charges = [a for a in actions if isinstance(a, Charge)]
        if charges:
            if state.variant.mode == "table":
                return Charge(player=seat, value=self.rng.below(20) + 1)
            return charges[0]
        moves = [a for a in actions if isinstance(a, Move)]
        if moves:
            return self._move(state, seat, moves)
        return next(a for a in actions if isinstance(a, EndTurn))

    def _move(self, state: State, seat: str, moves: list[Move]) -> Move:
        owner = INDEX[seat]
        enemies = [h for f in state.figures if f.owner != owner and f.status == "placed" for h in hexes_of(f)]
        b = board(state)
        figure = moves[0].figure
        mine = [m for m in moves if m.figure == figure]

        def score(m: Move) -> tuple[int, int, int]:
            near = min((geometry.distance(m.to, e) for e in enemies), default=0)
            glyph = 0 if b.cells[m.to].glyph else 1
            return (near, glyph, -b.level(m.to))

        return min(mine, key=score)


__all__ = ["GreedyBot", "RandomBot"]
