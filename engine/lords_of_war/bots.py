"""Two bots and ``play_bot_game``: what ``warlog demo``, the benchmarks and the property tests play.

- ``RandomBot(seed)``: uniform over the legal placements (``legal_placements``), then every shooter that may
  shoot does, at a target chosen uniformly; uniform over draw and the recallable units. Its generator is the
  project's SplitMix64 (``engine.lords_of_war.prng``), so a seed gives the same game everywhere.
- ``GreedyBot``: the placement (with greedy shots) that deals the most damage to enemy units this turn, then
  destroys the most enemy units; ties go to the first in enumeration order (card id, then board order).
  Shots are chosen per shooter, greedily: a target it would destroy, else the most damaged one. Reinforce: draw,
  else recall the first recallable unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.lords_of_war import geometry as geo
from engine.lords_of_war.actions import Concede, Draw, LordsOfWarAction, Place, Shoot
from engine.lords_of_war.armies import start
from engine.lords_of_war.cards import CARDS
from engine.lords_of_war.geometry import NEIGHBOUR_DELTAS
from engine.lords_of_war.prng import SplitMix64
from engine.lords_of_war.rules import decide, destroyed_units, is_engaged, legal_actions, legal_placements
from engine.lords_of_war.state import PLAYERS, State, evolve, initial_state


class Bot(Protocol):
    def choose(self, state: State) -> LordsOfWarAction: ...


def _shooters(state: State, board: dict[int, tuple[str, int]], p: int) -> list[tuple[int, list[int], int]]:
    """(shooter, enemy targets in its grid, value) for each of p's ranged units that may shoot (§6)."""
    out = []
    for s, (card_id, owner) in board.items():
        if owner != p:
            continue
        card = CARDS[card_id]
        if not card.is_ranged or is_engaged(board, s):
            continue
        targets = []
        for d in card.grid_deltas[p]:
            t = board.get(s + d)
            if t is not None and t[1] != p:
                targets.append(s + d)
        if targets:
            targets.sort(key=geo.board_order)
            out.append((s, targets, card.ranged_value))
    out.sort(key=lambda item: geo.board_order(item[0]))
    return out


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State) -> LordsOfWarAction:
        if state.phase == "deploy":
            placements = legal_placements(state)
            if not placements:
                return Concede(player=PLAYERS[state.active])
            place = placements[self.rng.below(len(placements))]
            if state.challenge:
                return place
            p = state.active
            board = dict(state.board)
            board[geo.parse(place.square, state.unbounded)] = (place.card, p)  # type: ignore[index]
            shots = tuple(
                Shoot(shooter=geo.name(s, state.unbounded), target=geo.name(targets[self.rng.below(len(targets))], state.unbounded))
                for s, targets, _ in _shooters(state, board, p)
            )
            return Place(player=place.player, card=place.card, square=place.square, shots=shots) if shots else place
        actions = legal_actions(state)
        if not actions:
            return Concede(player=PLAYERS[state.active])
        return actions[self.rng.below(len(actions))]


class GreedyBot:
    def choose(self, state: State) -> LordsOfWarAction:
        if state.phase != "deploy":
            actions = legal_actions(state)
            return actions[0] if actions else Concede(player=PLAYERS[state.active])
        placements = legal_placements(state)
        if not placements:
            return Concede(player=PLAYERS[state.active])
        if state.challenge:
            return max(placements, key=lambda pl: (CARDS[pl.card].defence, pl.card))
        best: tuple[tuple[int, int], Place] | None = None
        p = state.active
        for place in placements:
            k = geo.parse(place.square, state.unbounded)
            assert k is not None
            board = dict(state.board)
            board[k] = (place.card, p)
            shots, shot_map = self._shots(state, board, p)
            area = {k, *(k + d for d in NEIGHBOUR_DELTAS), *shot_map}
            damage = 0
            for a in area:
                unit = board.get(a)
                if unit is None or unit[1] == p:
                    continue
                for d in NEIGHBOUR_DELTAS:
                    other = board.get(a + d)
                    if other is not None and other[1] == p:
                        damage += CARDS[other[0]].points[p].get(-d, 0)
                damage += sum(v for *_, v in shot_map.get(a, ()))
            kills = sum(1 for sq, _, _ in destroyed_units(board, shot_map, area) if board[sq][1] != p)
            score = (damage, kills)
            if best is None or score > best[0]:
                best = (score, Place(player=place.player, card=place.card, square=place.square, shots=shots))
        assert best is not None
        return best[1]

    @staticmethod
    def _shots(state: State, board: dict[int, tuple[str, int]], p: int) -> tuple[tuple[Shoot, ...], dict[int, list[Any]]]:
        shot_map: dict[int, list[Any]] = {}
        orders = []
        pending: dict[int, int] = {}
        for s, targets, value in _shooters(state, board, p):

            def need(t: int) -> tuple[int, int]:
                from engine.lords_of_war.rules import melee_damage

                if t not in pending:
                    pending[t] = melee_damage(board, t)
                defence = CARDS[board[t][0]].defence
                already = pending[t] > defence
                kills = (not already) and pending[t] + value > defence
                return (1 if kills else 0, 0 if already else pending[t])

            target = max(targets, key=need)
            pending[target] = pending.get(target, 0) + value
            shot_map.setdefault(target, []).append((s, board[s][0], p, value))
            orders.append(Shoot(shooter=geo.name(s, state.unbounded), target=geo.name(target, state.unbounded)))
        return tuple(orders), shot_map


def make_bot(kind: str | Bot, seed: int) -> Bot:
    if not isinstance(kind, str):
        return kind
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot()
    raise ValueError(f"unknown bot {kind!r}: 'random' or 'greedy'")


def play_bot_game(
    seed: int,
    armies: Sequence[Any] = ("orcs", "dwarves"),
    variant: dict[str, Any] | None = None,
    bots: Sequence[str | Bot] = ("random", "random"),
    max_turns: int = 2000,
    position: dict[str, Any] | None = None,
) -> list[Any]:
    """A complete bot game -> its events (``game_started`` first, ``game_ended`` last).

    ``seed`` shuffles the decks (sealed mode) and seeds the random bots (p1: seed, p2: seed + 1).
    A game still running after ``max_turns`` turns ends by the side to move conceding (a safety net; the
    property tests count how often it is used).
    """
    setup: dict[str, Any] = {
        "system": "lords-of-war",
        "players": [{"id": f"p{i + 1}", "name": f"bot {i + 1}", "army": army} for i, army in enumerate(armies)],
        "variant": variant or {},
        "seed": seed,
    }
    if position is not None:
        setup["position"] = position
    players = [make_bot(kind, seed + i) for i, kind in enumerate(bots)]
    events: list[Any] = list(start(setup))
    state = initial_state()
    for event in events:
        state = evolve(state, event)
    while state.phase != "over":
        if state.turn > max_turns:
            action: LordsOfWarAction = Concede(player=PLAYERS[state.active])
        else:
            action = players[state.active].choose(state)
        for event in decide(state, action):
            state = evolve(state, event)
            events.append(event)
    return events


__all__ = ["Bot", "Draw", "GreedyBot", "RandomBot", "make_bot", "play_bot_game"]
