"""Test bots shared by the replay tests."""

from __future__ import annotations

from engine.errors import RuleError
from engine.lords_of_war import Draw, decide
from engine.lords_of_war.bots import RandomBot


class KnownDrawBot(RandomBot):
    """A table-mode scorekeeper who knows some drawn cards: every other draw (by the bot's PRNG) names a legal card."""

    def choose(self, state):
        action = super().choose(state)
        if isinstance(action, Draw) and state.table and self.rng.below(2):
            for card in sorted(set(state.armies[state.active].cards)):
                try:
                    decide(state, Draw(player=action.player, card=card))
                except RuleError:
                    continue
                return Draw(player=action.player, card=card)
        return action
