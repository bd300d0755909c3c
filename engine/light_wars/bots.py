"""Seeded bots that play only legal actions (``legal_actions``); chance only from ``engine.prng``.

- ``random``: a kind of action first (move, wait, attack, ...: uniform over the kinds the state allows), then one
  of that kind uniformly, so waiting and attacking are not drowned by the many moves.
- ``greedy``: attacks when its expected total is at least the defence's (the King first, rear and side attacks,
  every unit that may join); else turns a ready or moved unit to face an enemy it could then attack so (R6: move,
  turn, attack); otherwise moves a unit onto the enemy Castle if it can, else towards the enemy King or nearest
  enemy, facing it, or turns it towards the nearest enemy (the King stays home); rolls a fair die of its own at a
  table; declares the tiles that help this turn when the stock allows and keeps bases otherwise.
"""

from __future__ import annotations

from engine.light_wars import geometry
from engine.light_wars.actions import (
    Attack,
    ChooseFirst,
    Deploy,
    DeployAll,
    LightWarsAction,
    Move,
    Roll,
    Tactics,
    Turn,
    Wait,
)
from engine.light_wars.rules import attack_options, declare, legal_actions
from engine.light_wars.state import INDEX, ON_MAP, State, Unit, data_of, evolve, unit_at
from engine.prng import SplitMix64
from events.light_wars import UnitTurned


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> LightWarsAction:
        actions = legal_actions(state, seat)
        kinds: dict[str, list[LightWarsAction]] = {}
        for a in actions:
            kinds.setdefault(type(a).__name__, []).append(a)
        names = sorted(kinds)
        pool = kinds[names[self.rng.below(len(names))]]
        return pool[self.rng.below(len(pool))]


def _margin(state: State, attack: Attack) -> float:
    """The attacking side's expected total minus the defence's (dice average alike, so they cancel)."""
    target = unit_at(state, attack.target)
    assert target is not None
    attackers = [unit_at(state, sq) for sq in attack.attackers]
    declared = declare(state, attack.player, target, [u for u in attackers if u is not None])
    total = sum(p.attack + p.bonus for p in declared.participants) + declared.tactic_bonus
    return total - declared.defence


def _strike_after_turning(state: State, owner: int, turn: Turn) -> tuple[float, int] | None:
    """The best attack ``turn`` opens to its unit (with every unit that may join): (margin, King), or None."""
    u = unit_at(state, turn.square)
    assert u is not None
    after = evolve(state, UnitTurned(player=turn.player, unit=u.id, square=turn.square, facing=turn.facing))
    best: tuple[float, int] | None = None
    for target, able in attack_options(after, owner):
        if turn.square in {a.square for a in able} and target.square is not None:
            joined = Attack(player=turn.player, target=target.square, attackers=tuple(a.square or "" for a in able))
            value = (_margin(after, joined), int(data_of(after).units[target.type].is_king))
            best = value if best is None or value > best else best
    return best


def _enemies(state: State, owner: int) -> list[Unit]:
    return [u for u in state.units if u.owner != owner and u.status in ON_MAP and u.square]


def _towards(state: State, owner: int, square: str) -> str:
    """The facing from ``square`` towards the nearest enemy (ties: straight ahead)."""
    enemies = _enemies(state, owner)
    if not enemies:
        return geometry.home_facing(owner)
    board = data_of(state).board
    nearest = min(enemies, key=lambda u: (board.distance(square, u.square or square), board.order[u.square or square]))
    assert nearest.square is not None
    (x0, y0), (x1, y1) = board.squares[square], board.squares[nearest.square]
    dx, dy = x1 - x0, y1 - y0
    if abs(dy) >= abs(dx) and dy:
        return "N" if dy > 0 else "S"
    if dx:
        return "E" if dx > 0 else "W"
    return geometry.home_facing(owner)


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State, seat: str) -> LightWarsAction:
        actions = legal_actions(state, seat)
        owner = INDEX[seat]
        first = actions[0]
        if isinstance(first, Roll):
            return actions[self.rng.below(len(actions))]  # a fair die of its own: a bot does not choose its roll
        if isinstance(first, ChooseFirst):
            return next(a for a in actions if isinstance(a, ChooseFirst) and a.first == seat)
        if isinstance(first, DeployAll):
            return actions[self.rng.below(len(actions))]
        if isinstance(first, Deploy):
            return self._deploy(state, owner, actions)
        if isinstance(first, Tactics):
            return self._tactics(state, owner, actions)
        return self._act(state, owner, actions)

    def _deploy(self, state: State, owner: int, actions: list[LightWarsAction]) -> LightWarsAction:
        board = data_of(state).board
        castle = board.castle(owner)
        facing = geometry.home_facing(owner)
        front = board.territory_rows(owner)[-1 if owner == 0 else 0]
        deploys = [a for a in actions if isinstance(a, Deploy) and a.facing == facing]
        king = [a for a in deploys if a.unit == "K" and a.square == castle]
        if king:
            return king[0]
        others = [a for a in deploys if a.unit != "K" and board.squares[a.square][1] == front]
        pool = others or deploys
        centre = board.squares[castle][0]
        best = min(abs(board.squares[a.square][0] - centre) for a in pool)
        pool = [a for a in pool if abs(board.squares[a.square][0] - centre) == best]
        return pool[self.rng.below(len(pool))]

    def _tactics(self, state: State, owner: int, actions: list[LightWarsAction]) -> LightWarsAction:
        useful = {"attack_total"} if any(True for _ in attack_options(state, owner)) else {"move"}
        tiles = data_of(state).tactics
        best: LightWarsAction = actions[0]
        for a in actions:
            if isinstance(a, Tactics) and len(a.tiles) == 1 and tiles[a.tiles[0]].effect in useful \
                    and state.stock[owner] - tiles[a.tiles[0]].cost >= 2:
                best = a
        return best

    def _act(self, state: State, owner: int, actions: list[LightWarsAction]) -> LightWarsAction:
        data = data_of(state)
        board = data.board
        attacks = [a for a in actions if isinstance(a, Attack)]
        if attacks:
            def value(a: Attack) -> tuple[float, int, int]:
                target = unit_at(state, a.target)
                king = int(target is not None and data.units[target.type].is_king)
                return (_margin(state, a), king, len(a.attackers))
            best = max(attacks, key=value)
            if value(best)[0] >= 0 or all(
                    (u := unit_at(state, sq)) is not None and data.units[u.type].shoots and
                    board.distance(sq, best.target) > 1 for sq in best.attackers):
                return best
        strikes = [(opened, a) for a in actions if isinstance(a, Turn)
                   if (opened := _strike_after_turning(state, owner, a)) is not None and opened[0] >= 0]
        if strikes:  # R6: turn to strike (the attack follows, as the best attack, in the next choice)
            return max(strikes, key=lambda va: (va[0], va[1].square, va[1].facing))[1]
        moves = [a for a in actions if isinstance(a, Move)]
        enemy_castle = board.castle(1 - owner)
        for m in moves:
            if m.to == enemy_castle:
                return m
        moves = [m for m in moves if (u := unit_at(state, m.square)) is not None and u.id != "K"]  # the King stays
        if moves:
            enemies = _enemies(state, owner)
            king = next((u for u in enemies if u.id == "K"), None)
            goal = (king.square if king else None) or enemy_castle

            def closeness(m: Move) -> tuple[int, int, int]:
                facing_ok = int(m.facing == _towards(state, owner, m.to))
                return (-board.distance(m.to, goal), facing_ok, -board.order[m.to])
            best_move = max(moves, key=closeness)
            here = unit_at(state, best_move.square)
            if here is not None and here.square is not None and \
                    board.distance(best_move.to, goal) < board.distance(here.square, goal):
                return best_move
        turning = [a for a in actions if isinstance(a, Turn) and a.facing == _towards(state, owner, a.square)
                   and (u := unit_at(state, a.square)) is not None and u.id != "K" and u.status == "ready"]
        if turning:
            return turning[0]
        waits = [a for a in actions if isinstance(a, Wait) and a.facing is None]
        return waits[0] if waits else actions[0]


__all__ = ["GreedyBot", "RandomBot"]
