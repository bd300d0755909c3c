"""The sample maps (fixtures/heroscape/maps.json) and the map format's checks (§1)."""

from __future__ import annotations

import pytest

from engine.errors import SetupError
from engine.heroscape.geometry import Mover, fall_dice, line_of_sight, reachable
from engine.heroscape.maps import load_maps, parse_map


def test_sample_maps_have_levels_water_a_road_and_glyphs() -> None:
    maps = load_maps()
    assert set(maps) == {"twin-hill", "river-ford"}
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
