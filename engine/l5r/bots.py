"""Seeded bots that play only legal actions (``legal_actions``); chance only from ``engine.prng``.

- ``random``: a kind of action first (uniform over the kinds the state allows: produce, recruit, attach, challenge,
  army, pass, ...), then one of that kind uniformly. At a table it draws a card of the deck uniformly, copies
  counted, as a shuffled deck would give.
- ``greedy``: recruits the best personality it can pay (proclaiming when it may), holdings when nothing better is
  affordable; plays its rings; attaches followers and items to its strongest personality once it has three;
  challenges when its duellist's chi is 2 or more above the other's; attacks when its standing force beats the
  weakest province, with every standing personality as one army there; defends the battlefield the attacking army
  threatens most when it wins that battle or saves the province, else keeps its army home; in a duel focuses its
  best hand card while its total is not clearly ahead, then strikes.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.l5r.actions import (
    Army,
    Attach,
    Attack,
    Challenge,
    Discard,
    DiscardDynasty,
    Draw,
    Focus,
    L5RAction,
    Pass,
    PlayRing,
    Produce,
    Recruit,
    Strike,
)
from engine.l5r.catalogue import cards_of, owner_of
from engine.l5r.rules import (
    army_force,
    available_units,
    duel_base,
    gold_sources,
    legal_actions,
    province_strength,
    recruit_cost,
    unseen_pool,
)
from engine.l5r.state import State, focus_count
from engine.prng import SplitMix64


def _table_draw(rng: SplitMix64, state: State, seat: str) -> Draw:
    """The table's entry: a card of the unseen pool, copies counted, as a shuffled deck would give."""
    pool = unseen_pool(state, state.pending[0])
    return Draw(player=seat, card=pool[rng.below(len(pool))].split(".")[1])


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> L5RAction:
        if state.pending and state.mode == "table":
            return _table_draw(self.rng, state, seat)
        actions = legal_actions(state, seat)
        kinds: dict[str, list[L5RAction]] = {}
        for a in actions:
            kinds.setdefault(type(a).__name__, []).append(a)
        names = sorted(kinds)
        pool = kinds[names[self.rng.below(len(names))]]
        return pool[self.rng.below(len(pool))]


def _first(actions: Sequence[L5RAction], kind: type) -> L5RAction | None:
    return next((a for a in actions if isinstance(a, kind)), None)


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> L5RAction:  # noqa: C901 - one branch per moment
        book = cards_of(state)
        card_of = book.card
        if state.pending and state.mode == "table":
            return _table_draw(self.rng, state, seat)
        actions = legal_actions(state, seat)
        p = state.player(seat)
        if state.duel is not None:
            return self._duel(state, seat, actions)
        if state.phase == "end":
            return min((a for a in actions if isinstance(a, Discard)), key=lambda a: (card_of(a.card).focus, a.card))
        if state.phase == "attack":
            other = state.player(state.other(seat))
            force = army_force(state, available_units(state, seat))
            weakest = min((province_strength(state, other.id, pr.number) for pr in other.provinces), default=0)
            return Attack(player=seat) if force > weakest else Pass(player=seat)
        if state.phase == "maneuvers":
            return self._maneuver(state, seat)
        if state.phase == "dynasty":
            return self._dynasty(state, seat, actions)
        if state.phase == "action":
            ring = _first(actions, PlayRing)
            if ring is not None:
                return ring
            for a in actions:
                if isinstance(a, Challenge) and duel_base(state, a.challenger, "chi") >= \
                        duel_base(state, a.challenged, "chi") + 2:
                    return a
            people = [c for c in p.cards if c.on is None and card_of(c.id).kind == "personality"]
            if len(people) >= 3 and any(card_of(h).kind in ("follower", "item") for h in p.hand):
                strongest = max(people, key=lambda c: (card_of(c.id).force, c.id)).id
                attach = [a for a in actions if isinstance(a, Attach) and a.to == strongest
                          and card_of(a.card).kind in ("follower", "item")]
                if attach:
                    return max(attach, key=lambda a: (card_of(a.card).force, a.card))
                wanted = [card_of(h).cost for h in p.hand if card_of(h).kind in ("follower", "item")]
                produce = _first(actions, Produce)
                if produce is not None and p.gold < max(wanted) <= p.gold + sum(
                        p.production if s == p.stronghold else card_of(s).gold for s in gold_sources(book, p)):
                    return produce
        return Pass(player=seat)

    def _duel(self, state: State, seat: str, actions: Sequence[L5RAction]) -> L5RAction:
        book = cards_of(state)
        card_of = book.card
        duel = state.duel
        assert duel is not None
        mine = duel.challenger if owner_of(duel.challenger) == seat else duel.challenged
        theirs = duel.challenged if mine == duel.challenger else duel.challenger
        my_total = duel_base(state, mine, duel.stat) + sum(
            card_of(f.card).focus for f in duel.focuses
            if f.player == seat and f.source == "hand" and f.card is not None)
        their_guess = duel_base(state, theirs, duel.stat) + 2 * focus_count(duel, owner_of(theirs))
        if my_total > their_guess + 1:
            return Strike(player=seat)
        hand = [a for a in actions if isinstance(a, Focus) and a.source == "hand" and a.card is not None]
        if hand:
            best = max(hand, key=lambda a: (card_of(a.card or "").focus, a.card or ""))
            if card_of(best.card or "").focus >= 2:
                return best
        deck = _first(actions, Focus)
        if deck is not None and focus_count(duel, seat) < 2:
            return next((a for a in actions if isinstance(a, Focus) and a.source == "deck"), deck)
        return Strike(player=seat)

    def _maneuver(self, state: State, seat: str) -> L5RAction:
        free = sorted(available_units(state, seat))
        if seat == state.defender:
            threats = [a for a in state.armies if a.side == "attacker"]
            if free and threats and not any(a.side == "defender" for a in state.armies):
                army = max(threats, key=lambda a: (army_force(state, a.units), -a.battlefield))
                attacking, ours = army_force(state, army.units), army_force(state, free)
                strength = province_strength(state, seat, army.battlefield)
                # defend where it wins the battle, or saves the province; never feed a lost cause
                if ours >= attacking or attacking <= ours + strength < attacking + strength and \
                        attacking > strength:
                    return Army(player=seat, battlefield=army.battlefield, units=tuple(free))
            return Pass(player=seat)
        if free and not state.armies and state.battlefields and state.defender is not None:
            field = min(state.battlefields, key=lambda f: (province_strength(state, state.defender or "", f), f))
            return Army(player=seat, battlefield=field, units=tuple(free))
        return Pass(player=seat)

    def _dynasty(self, state: State, seat: str, actions: Sequence[L5RAction]) -> L5RAction:
        book = cards_of(state)
        card_of = book.card
        p = state.player(seat)
        potential = p.gold + sum(p.production if s == p.stronghold else card_of(s).gold for s in gold_sources(book, p))
        best: tuple[int, int] | None = None
        target = None
        for pr in p.provinces:
            if pr.card is None or not pr.face_up:
                continue
            card = card_of(pr.card)
            cost = recruit_cost(book, p, pr.card)[0]
            if card.kind == "personality" and p.honor >= card.honor_req and cost <= potential:
                rank = (2, card.force + card.chi)
            elif card.kind == "holding" and cost <= potential:
                rank = (1, card.gold)
            else:
                continue
            if best is None or rank > best:
                best, target = rank, pr
        if target is not None and target.card is not None:
            if p.gold >= recruit_cost(book, p, target.card)[0]:
                recruits = [a for a in actions if isinstance(a, Recruit) and a.province == target.number]
                return max(recruits, key=lambda a: a.proclaim)
            produce = _first(actions, Produce)
            if produce is not None:
                return produce
        discard = next((a for a in actions if isinstance(a, DiscardDynasty)
                        and card_of(next(pr.card for pr in p.provinces if pr.number == a.province) or "").kind
                        == "personality" and p.honor < card_of(next(pr.card for pr in p.provinces
                                                                     if pr.number == a.province) or "").honor_req),
                       None)
        if discard is not None:
            return discard
        return Pass(player=seat)


__all__ = ["GreedyBot", "RandomBot"]
