"""Two bots and ``play_bot_game``: what ``warlog demo``, the benchmarks and the property tests play.

Both satisfy ``engine.system.Bot`` (``choose(state, seat)``; the seat, if given, must be the one to act) and are
the system's ``bots`` (``SYSTEM.bots``: name -> factory taking a seed).

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
from engine.lords_of_war.geometry import NEIGHBOUR_DELTAS
from engine.lords_of_war.rules import (
    decide,
    is_engaged,
    legal_actions,
    legal_placement_keys,
    melee_damage,
)
from engine.lords_of_war.seating import SEAT_NAMES
from engine.lords_of_war.state import State, cards_of, evolve, initial_state
from engine.prng import SplitMix64


class Bot(Protocol):
    def choose(self, state: State) -> LordsOfWarAction: ...


def _check_seat(state: State, seat: str | None) -> None:
    if seat is not None and (state.phase not in ("deploy", "reinforce") or seat != SEAT_NAMES[state.active]):
        raise ValueError(f"a bot is asked to play for {seat}, who is not to act")


def _shooters(state: State, board: dict[int, tuple[str, int]], p: int) -> list[tuple[int, list[int], int]]:
    """(shooter, enemy targets in its grid, value) for each of p's ranged units that may shoot (§6)."""
    out = []
    cards = cards_of(state)
    for s, (card_id, owner) in board.items():
        if owner != p:
            continue
        card = cards.cards[card_id]
        if not card.is_ranged or is_engaged(board, s, cards):
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

    def choose(self, state: State, seat: str | None = None) -> LordsOfWarAction:
        _check_seat(state, seat)
        if state.phase == "deploy":
            placements = legal_placement_keys(state)
            player = SEAT_NAMES[state.active]
            if not placements:
                return Concede(player=player)
            card, k = placements[self.rng.below(len(placements))]
            square = geo.name(k, state.unbounded)
            if state.challenge:
                return Place(player=player, card=card, square=square)
            p = state.layout.side[state.active]  # §10: every shooter of the side may shoot
            board = dict(state.board)
            board[k] = (card, p)
            shots = tuple(
                Shoot(
                    shooter=geo.name(s, state.unbounded),
                    target=geo.name(targets[self.rng.below(len(targets))], state.unbounded),
                )
                for s, targets, _ in _shooters(state, board, p)
            )
            return Place(player=player, card=card, square=square, shots=shots)
        actions = legal_actions(state)
        if not actions:
            return Concede(player=SEAT_NAMES[state.active])
        return actions[self.rng.below(len(actions))]


class GreedyBot:
    def __init__(self, seed: int = 0) -> None:
        """``seed`` is not used: the greedy bot's choices are fixed by the state (ties: enumeration order)."""

    def choose(self, state: State, seat: str | None = None) -> LordsOfWarAction:
        _check_seat(state, seat)
        player = SEAT_NAMES[state.active]
        if state.phase != "deploy":
            actions = legal_actions(state)
            return actions[0] if actions else Concede(player=player)
        placements = legal_placement_keys(state)
        if not placements:
            return Concede(player=player)
        cards = cards_of(state)
        table = cards.cards
        if state.challenge:  # the toughest card goes first
            toughest, k = max(placements, key=lambda pl: (table[pl[0]].defence, pl[0]))
            return Place(player=player, card=toughest, square=geo.name(k, state.unbounded))
        p = state.layout.side[state.active]  # the board's units are sides' (§10: team-mates fight together)
        board = dict(state.board)  # the placement is tried in place and taken back
        standing = _shooters(state, board, p)  # placing an own unit changes no other shooter's options
        best_score: tuple[int, int] | None = None
        best: tuple[str, int, tuple[Shoot, ...]] = (placements[0][0], placements[0][1], ())
        for card_id, k in placements:
            board[k] = (card_id, p)
            card = table[card_id]
            shooters = standing
            if card.is_ranged and not is_engaged(board, k, cards):
                targets = sorted((k + d for d in card.grid_deltas[p] if (k + d) in board and board[k + d][1] != p),
                                 key=geo.board_order)
                if targets:
                    shooters = sorted([*standing, (k, targets, card.ranged_value)], key=lambda s: geo.board_order(s[0]))
            shots, shot_map = self._shots(state, board, p, shooters)
            area = {k + d for d in NEIGHBOUR_DELTAS}
            area.update(shot_map)
            damage = kills = 0
            for a in area:  # an enemy unit's damage all comes from p's units
                unit = board.get(a)
                if unit is None or unit[1] == p:
                    continue
                taken = 0
                for d in NEIGHBOUR_DELTAS:
                    other = board.get(a + d)
                    if other is not None and other[1] == p:
                        taken += table[other[0]].points[p].get(-d, 0)
                for shot in shot_map.get(a, ()):
                    taken += shot[3]
                damage += taken
                if taken > table[unit[0]].defence:
                    kills += 1
            del board[k]
            score = (damage, kills)
            if best_score is None or score > best_score:
                best_score, best = score, (card_id, k, shots)
        card_id, k, shots = best
        return Place(player=player, card=card_id, square=geo.name(k, state.unbounded), shots=shots)

    @staticmethod
    def _shots(
        state: State, board: dict[int, tuple[str, int]], p: int, shooters: list[tuple[int, list[int], int]]
    ) -> tuple[tuple[Shoot, ...], dict[int, list[Any]]]:
        """Per shooter in board order: a target it would destroy, else the most damaged one (then board order)."""
        shot_map: dict[int, list[Any]] = {}
        orders = []
        pending: dict[int, int] = {}
        cards = cards_of(state)
        for s, targets, value in shooters:
            best_target = targets[0]
            best_key: tuple[int, int] | None = None
            for t in targets:
                if t not in pending:
                    pending[t] = melee_damage(board, t, cards)
                defence = cards.cards[board[t][0]].defence
                already = pending[t] > defence
                key = (1 if (not already and pending[t] + value > defence) else 0, -1 if already else pending[t])
                if best_key is None or key > best_key:
                    best_key, best_target = key, t
            pending[best_target] += value
            shot_map.setdefault(best_target, []).append((s, board[s][0], p, value))
            orders.append(Shoot(shooter=geo.name(s, state.unbounded), target=geo.name(best_target, state.unbounded)))
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
    bots: Sequence[str | Bot] | None = None,
    max_turns: int = 2000,
    position: dict[str, Any] | None = None,
    catalogue: dict[str, Any] | None = None,
) -> list[Any]:
    """A complete bot game -> its events (``game_started`` first, ``game_ended`` last).

    One army per seat (2, 3, 4 or 6: §10; with 4 or 6 the variant gets ``teams``); ``bots`` one per seat (default:
    all random). ``seed`` shuffles the decks (sealed mode) and seeds the random bots (p1: seed, p2: seed + 1, ...).
    A game still running after ``max_turns`` turns ends by the side to move conceding (a safety net; the
    property tests count how often it is used). ``catalogue``: the document of the game's catalogue (issue 30;
    ``armies`` then name its armies), None for the default.
    """
    setup: dict[str, Any] = {
        "system": "lords-of-war",
        "players": [{"id": f"p{i + 1}", "name": f"bot {i + 1}", "army": army} for i, army in enumerate(armies)],
        "variant": dict(variant or {}),
        "seed": seed,
    }
    if len(armies) in (4, 6):
        setup["variant"].setdefault("teams", True)
    if position is not None:
        setup["position"] = position
    if catalogue is not None:
        setup["catalogue"] = catalogue
    players = [make_bot(kind, seed + i) for i, kind in enumerate(bots or ("random",) * len(armies))]
    events: list[Any] = list(start(setup))
    state = initial_state()
    for event in events:
        state = evolve(state, event)
    while state.phase != "over":
        if state.turn > max_turns:
            action: LordsOfWarAction = Concede(player=SEAT_NAMES[state.active])
        else:
            action = players[state.active].choose(state)
        for event in decide(state, action):
            state = evolve(state, event)
            events.append(event)
    return events


__all__ = ["Bot", "Draw", "GreedyBot", "RandomBot", "make_bot", "play_bot_game"]
