"""The sample maps (engine/heroscape/data/maps.json) and the map format's checks (§1)."""

from __future__ import annotations

import pytest

from engine.errors import SetupError
from engine.heroscape.catalogue import load_maps, parse_map
from engine.heroscape.geometry import Mover, fall_dice, line_of_sight, reachable


def test_sample_maps_have_levels_water_a_road_and_glyphs() -> None:
    maps = load_maps()
    assert set(maps) == {"twin-hill", "river-ford", "proving-ground"}
    for game_map in maps.values():
        cells = game_map.board.cells.values()
        assert len({c.level for c in cells}) >= 2
        assert {"water", "road"} <= {c.terrain for c in cells}
        assert sum(c.glyph is not None for c in cells) >= 3
        assert set(game_map.start_zones) == {"p1", "p2"}


def test_twin_hill_hand_worked() -> None:
    board = load_maps()["twin-hill"].board
    # the hill top (level 5) from level 1 next to it: 1 + 4 = 5 movement, needs height 5 or more
    assert reachable(board, (0, 2), Mover("a", height=5, move=5), {}).get((0, 1)) == 5
    # height 4 cannot climb the 4 levels at once: round by the ridge (level 3) for 9:
    # (1, 1) 1, (2, 0) 2, ridge (2, -1) 2 + 1 + 2 = 5, hill (1, 0) 5 + 1 + 2 = 8, (0, 1) 9
    assert reachable(board, (0, 2), Mover("a", height=4, move=9), {}).get((0, 1)) == 9
    assert (0, 1) not in reachable(board, (0, 2), Mover("a", height=4, move=8), {})
    # the hill (level 5) hides (0, -3) from (0, 3) for a height-4 figure: eye 5, centre 3; the hill at level 5 between
    assert not line_of_sight(board, (0, 3), 4, (0, -3), 4)
    # jumping off the hill: drop 4 ≥ height 4 → one die
    assert fall_dice(board, (0, 0), (0, 2), 4) == 1


def test_river_ford_water_stops_but_the_ford_does_not() -> None:
    board = load_maps()["river-ford"].board
    swim = reachable(board, (-2, 1), Mover("a", height=5, move=6), {})
    assert swim[(-1, 1)] == 1 and (0, 1) in swim  # the ford at (-1, 0) is road: walk over it
    wade = reachable(board, (-2, 2), Mover("a", height=5, move=2), {})
    assert (-1, 2) in wade and (0, 2) not in wade  # into the water at (-1, 2), stopped


def test_proving_ground_has_an_edge_inlet_a_deep_drop_and_a_river_one_and_two_hexes_wide() -> None:
    """The places the HTTP tests of every §3/§4 rule use (tests/api/heroscape/test_heroscape_proving_ground.py)."""
    board = load_maps()["proving-ground"].board
    inlet = [(-6, 3), (-5, 3), (-4, 3)]
    assert not any(h in board.cells for h in inlet)
    assert all(h in board.cells for h in [(-6, 2), (-6, 4), (-3, 3)])  # the map on both sides and round its head
    assert reachable(board, (-6, 4), Mover("a", height=5, move=9), {})[(-6, 2)] == 7  # 2 across, 7 round
    assert fall_dice(board, (3, -1), (2, -1), 5) == 2 and fall_dice(board, (3, -1), (4, -2), 5) == 1
    assert fall_dice(board, (3, -1), (3, 0), 5) == 0  # into the river
    assert [board.cells[(q, 0)].terrain for q in (4, 5, 6)] == ["water"] * 3
    assert [board.cells[(q, 1)].terrain for q in (2, 3)] == ["grass"] * 2  # one hex wide east of q=2
    assert [board.cells[(-4, r)].terrain for r in (0, 1)] == ["water"] * 2  # two wide west of it
    assert all(board.cells[(-1, r)].terrain == "road" for r in range(-5, 7))  # the road and its bridge


@pytest.mark.parametrize(
    "data",
    [
        {"cells": []},
        {"cells": [[0, 0, -1, "grass", None]]},
        {"cells": [[0, 0, 1, "lava", None]]},
        {"cells": [[0, 0, 1, "grass", None], [0, 0, 2, "grass", None]]},
        {"cells": [[0, 0, 1, "grass", None], [2, 0, 1, "grass", None]], "obstacles": [[[0, 0], [2, 0], 3]]},
        {"cells": [[0, 0, 1, "grass", None]], "start_zones": {"p1": [[5, 5]]}},
    ],
)
def test_bad_maps_are_refused_citing_section_1(data: dict[str, object]) -> None:
    with pytest.raises(SetupError) as refused:
        parse_map(data)
    assert refused.value.rule == "§1" and refused.value.code == "bad_map"
