"""Seeded bots that play only legal actions; chance only from ``engine.prng``.

- ``random``: a kind of action first (uniform over the kinds the state allows), then one of that kind uniformly; at
  a table it draws a card of the deck uniformly, copies counted.
- ``greedy``: keeps its first hand; deploys its sturdiest basic unit at the front centre and keeps the KING in hand;
  fights when an attack captures or destroys (the biggest first), else places the standby head at the front; cancels
  an attack that would take one of its units when it holds a GUARDIAN; negates an opposing support with a WIZARD;
  puts a basic unit into its kingdom once a turn while its hand holds more than three cards.
"""

from __future__ import annotations

from engine.art_of_war.actions import (
    ArtOfWarAction,
    Attack,
    Battle,
    Deploy,
    Draw,
    End,
    Entry,
    Pass,
    Place,
    Redraw,
    Support,
)
from engine.art_of_war.catalogue import cards_of, kind_of
from engine.art_of_war.rules import attack_value, defence, legal_actions
from engine.art_of_war.state import State
from engine.prng import SplitMix64


def _table_draw(rng: SplitMix64, state: State, seat: str) -> Draw:
    deck = state.player(seat).deck
    return Draw(player=seat, card=kind_of(deck[rng.below(len(deck))]))


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> ArtOfWarAction:
        if state.pending and state.mode == "table":
            return _table_draw(self.rng, state, seat)
        kinds: dict[str, list[ArtOfWarAction]] = {}
        for a in legal_actions(state, seat):
            kinds.setdefault(type(a).__name__, []).append(a)
        names = sorted(kinds)
        pool = kinds[names[self.rng.below(len(names))]]
        return pool[self.rng.below(len(pool))]


def _gain(state: State, attack: Attack) -> int:
    """What an attack would take: 2 for a capture or a kill of an undamaged unit, 1 for damage that kills, 0."""
    p = state.player(attack.player)
    unit = p.unit_at(attack.square)
    target = state.player(state.other(attack.player)).unit_at(attack.target)
    if unit is None or target is None:
        return 0
    book = cards_of(state)
    value = attack_value(state, attack.player, unit.card)
    d = defence(book, target.card, target.upright)
    king = 10 if book.card(target.card).king else 0
    if target.hits == 0 and value >= d:
        return 2 + king
    if target.hits >= 1 and target.damage + value >= d:
        return 1 + king
    return 0


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> ArtOfWarAction:  # noqa: C901 - one branch per moment
        card_of = cards_of(state).card
        if state.pending and state.mode == "table":
            return _table_draw(self.rng, state, seat)
        actions = legal_actions(state, seat)
        if state.conscript is not None or state.phase == "redraw" and state.mode == "table":
            return actions[0]
        if state.phase == "redraw":
            return Redraw(player=seat, again=False)
        if state.phase == "deploy":
            deploys = [a for a in actions if isinstance(a, Deploy) and not card_of(a.card).king
                       and not card_of(a.standby).king]
            return max(deploys, key=lambda a: (a.square == "B1", card_of(a.card).defence, a.card, a.standby))
        if state.chain:
            last = state.chain[-1]
            answers = [a for a in actions if isinstance(a, Support) and not card_of(a.card).king]
            if answers and (last.kind == "support" or self._threatened(state, seat)):
                return answers[0]
            return Pass(player=seat)
        p = state.player(seat)
        if not p.entered and len(p.hand) > 3:
            entry = next((a for a in actions if isinstance(a, Entry)), None)
            if entry is not None:
                return entry
        attacks = [a for a in actions if isinstance(a, Attack)]
        if attacks:
            best = max(attacks, key=lambda a: (_gain(state, a), a.square, a.target))
            if _gain(state, best) > 0:
                return best
        if state.action is None:
            probe = [a for a in legal_actions(state, seat) if isinstance(a, Battle)]
            fights = any(True for _ in probe) and self._can_take(state, seat)
            if fights:
                return Battle(player=seat)
            place = [a for a in actions if isinstance(a, Place)]
            if place:
                return min(place, key=lambda a: (a.square[1], a.square))
        return End(player=seat)

    def _can_take(self, state: State, seat: str) -> bool:
        from msgspec.structs import replace

        fighting = replace(state, action="battle")
        return any(_gain(fighting, a) > 0 for a in legal_actions(fighting, seat) if isinstance(a, Attack))

    def _threatened(self, state: State, seat: str) -> bool:
        attack = state.chain[0]
        target = state.player(seat).unit_at(attack.target or "")
        if target is None:
            return False
        book = cards_of(state)
        return attack.value >= defence(book, target.card, target.upright) or book.card(target.card).king


__all__ = ["GreedyBot", "RandomBot"]
