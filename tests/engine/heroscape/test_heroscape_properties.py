"""Properties of HeroScape movement and sight over seeded random maps (fast: 40 maps)."""

from __future__ import annotations

import random

import pytest

from engine.heroscape.geometry import (
    Board,
    Cell,
    Hex,
    Mover,
    distance,
    line_of_sight,
    neighbours,
    reachable,
    step_cost,
)


def random_board(rng: random.Random) -> Board:
    cells = {}
    for q in range(-4, 5):
        for r in range(-4, 5):
            if abs(q + r) <= 4:
                terrain = rng.choice(["grass", "grass", "rock", "road", "water"])
                glyph = "astrid" if rng.random() < 0.05 else None
                cells[(q, r)] = Cell(rng.randint(0, 8), terrain, glyph)
    return Board(cells)


@pytest.mark.parametrize("seed", range(40))
def test_reachable_costs_are_within_move_and_consistent(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng)
    hexes = sorted(board.cells)
    start = rng.choice(hexes)
    occupants: dict[Hex, tuple[str, bool]] = {
        h: (rng.choice("ab"), rng.random() < 0.3) for h in rng.sample(hexes, 8) if h != start
    }
    mover = Mover("a", height=rng.randint(2, 6), move=rng.randint(1, 6))
    costs = reachable(board, start, mover, occupants)
    road_start = board.cells[start].terrain == "road"
    for h, cost in costs.items():
        assert cost <= mover.move + (3 if road_start else 0)
        assert cost >= distance(start, h)
        assert h == start or h not in occupants
        if h != start and not road_start:
            # the last step came from somewhere reachable for less, by a legal step
            assert any(
                step_cost(board, p, h, mover.height) is not None and (p in costs or p in occupants)
                for p in neighbours(h)
                if p in board.cells
            )


@pytest.mark.parametrize("seed", range(40))
def test_line_of_sight_over_flat_ground_is_always_clear(seed: int) -> None:
    rng = random.Random(seed)
    board = Board({h: Cell(3) for h in random_board(rng).cells})
    a, b = rng.sample(sorted(board.cells), 2)
    assert line_of_sight(board, a, 1, b, 1)
