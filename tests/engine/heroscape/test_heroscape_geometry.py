"""Hand-worked maps for HeroScape movement (§3), engagement (§4) and line of sight (R1, §5)."""

from __future__ import annotations

from engine.heroscape.geometry import (
    Board,
    Cell,
    Hex,
    Mover,
    around_double,
    distance,
    double_space_end_ok,
    engaged,
    engaged_enemies,
    fall_dice,
    height_bonus,
    leaving_strikers,
    line_of_sight,
    plan,
    reachable,
)


def flat(radius: int = 6, level: int = 1, **changes: Cell) -> Board:
    cells: dict[Hex, Cell] = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q + r) <= radius:
                cells[(q, r)] = Cell(level)
    for key, cell in changes.items():
        q, r = (int(v) for v in key[1:].replace("m", "-").split("_"))
        cells[(q, r)] = cell
    return Board(cells)


def test_distance_ignores_levels() -> None:
    assert distance((0, 0), (3, 0)) == 3
    assert distance((0, 0), (2, -1)) == 2
    assert distance((-2, 2), (2, -2)) == 4


def test_movement_each_hex_costs_one_on_flat_ground() -> None:
    board = flat()
    costs = reachable(board, (0, 0), Mover("a", height=5, move=3), {})
    assert costs[(3, 0)] == 3 and costs[(1, 1)] == 2
    assert (4, 0) not in costs
    assert len(costs) == 1 + 6 + 12 + 18


def test_movement_climbing_costs_one_per_level() -> None:
    board = flat(h1_0=Cell(3))
    costs = reachable(board, (0, 0), Mover("a", height=5, move=5), {})
    assert costs[(1, 0)] == 3  # 1 + 2 levels climbed
    assert costs[(2, 0)] == 3  # around the step (3), not over it (3 + 1)
    # descending costs nothing extra: from the top down
    down = reachable(board, (1, 0), Mover("a", height=5, move=1), {})
    assert down[(2, 0)] == 1


def test_movement_cannot_climb_its_own_height_at_once() -> None:
    board = flat(h1_0=Cell(3))
    assert (1, 0) not in reachable(board, (0, 0), Mover("a", height=2, move=9), {})
    assert (1, 0) in reachable(board, (0, 0), Mover("a", height=3, move=9), {})


def test_movement_passes_unengaged_friends_never_enemies_and_never_ends_on_a_figure() -> None:
    board = Board({(q, 0): Cell(1) for q in range(5)})
    mover = Mover("a", height=4, move=4)
    friends = {(1, 0): ("a", False)}
    costs = reachable(board, (0, 0), mover, friends)
    assert (1, 0) not in costs and costs[(2, 0)] == 2
    assert (2, 0) not in reachable(board, (0, 0), mover, {(1, 0): ("b", False)})
    assert (2, 0) not in reachable(board, (0, 0), mover, {(1, 0): ("a", True)})


def test_movement_water_and_glyphs_stop_the_figure() -> None:
    board = Board({(q, 0): Cell(1, "water" if q == 1 else "grass", "astrid" if q == 3 else None) for q in range(6)})
    mover = Mover("a", height=4, move=9)
    assert max(reachable(board, (0, 0), mover, {})) == (1, 0)
    assert max(reachable(board, (2, 0), mover, {})) == (3, 0)


def test_movement_life_one_cannot_enter_healing_glyph() -> None:
    board = Board({(q, 0): Cell(1, glyph="kelda" if q == 1 else None) for q in range(3)})
    assert (1, 0) not in reachable(board, (0, 0), Mover("a", 4, 3, life=1), {}, frozenset({"kelda"}))
    assert (1, 0) in reachable(board, (0, 0), Mover("a", 4, 3, life=4), {}, frozenset({"kelda"}))


def test_movement_road_gives_three_extra_spaces_only_along_roads() -> None:
    cells = {(q, 0): Cell(1, "road") for q in range(8)} | {(q, 1): Cell(1) for q in range(8)}
    board = Board(cells)
    costs = reachable(board, (0, 0), Mover("a", 4, 2), {})
    assert costs[(5, 0)] == 5 and (6, 0) not in costs
    assert (2, 1) not in costs  # leaving the road: the plain 2 spaces only
    assert costs[(1, 1)] == 2


def test_falling_dice_by_drop_against_height() -> None:
    board = Board({(0, 0): Cell(20), (1, 0): Cell(15), (2, 0): Cell(5), (3, 0): Cell(5, "water"), (4, 0): Cell(18)})
    assert fall_dice(board, (0, 0), (4, 0), 4) == 0  # drop 2 < height
    assert fall_dice(board, (0, 0), (1, 0), 5) == 1  # drop 5 = height
    assert fall_dice(board, (0, 0), (2, 0), 5) == 2  # drop 15 = height + 10
    assert fall_dice(board, (0, 0), (3, 0), 5) == 0  # into water


def test_engagement_height_and_obstacle_exceptions() -> None:
    board = Board(
        {(0, 0): Cell(1), (1, 0): Cell(5), (2, 0): Cell(1), (0, 1): Cell(1)}, {frozenset({(0, 0), (0, 1)}): 6}
    )
    assert engaged(board, (0, 0), 4, (1, 0), 4)  # difference 4 = lower figure's height
    assert not engaged(board, (0, 0), 3, (1, 0), 5)  # difference 4 > 3
    assert not engaged(board, (0, 0), 5, (0, 1), 5)  # wall of 6 taller than both
    assert engaged(board, (0, 0), 6, (0, 1), 5)
    assert not engaged(board, (0, 0), 5, (2, 0), 5)  # not adjacent


def test_R1_line_of_sight_blocked_by_a_hill_between() -> None:
    board = flat(h2_0=Cell(8))
    assert not line_of_sight(board, (0, 0), 5, (4, 0), 5)
    assert line_of_sight(board, (0, 0), 5, (3, 2), 5)  # the hill is off the line
    high = flat(h2_0=Cell(8), h0_0=Cell(10))
    assert line_of_sight(high, (0, 0), 5, (4, 0), 5)  # eye 15 above the hill


def test_R1_line_of_sight_low_ground_and_walls() -> None:
    board = flat(h2_0=Cell(4))
    # eye 1+5=6, centre 1+2.5=3.5: at the midpoint the line is at 4.75 > 4
    assert line_of_sight(board, (0, 0), 5, (4, 0), 5)
    walled = Board(flat().cells, {frozenset({(1, 0), (2, 0)}): 7})
    assert not line_of_sight(walled, (0, 0), 5, (4, 0), 5)
    assert line_of_sight(walled, (0, 0), 5, (0, 4), 5)


def test_R1_line_along_an_edge_needs_both_sides_blocked() -> None:
    # (0,0) to (1,-2) runs along the edge between (0,-1) and (1,-1)
    one = flat(h0_m1=Cell(9))
    assert line_of_sight(one, (0, 0), 4, (1, -2), 4)
    both = flat(h0_m1=Cell(9), h1_m1=Cell(9))
    assert not line_of_sight(both, (0, 0), 4, (1, -2), 4)


def test_height_bonus_one_or_two_dice() -> None:
    assert height_bonus(3, 1) == 1
    assert height_bonus(12, 1) == 2
    assert height_bonus(1, 1) == 0 and height_bonus(1, 3) == 0


def test_leaving_engagement_strikers_are_enemies_left_behind() -> None:
    board = flat(h2_0=Cell(9))
    enemies = {(1, 0): 5, (0, 1): 5, (3, 0): 5}
    # at (0,0): engaged with (1,0) and (0,1); (3,0) is not adjacent
    assert engaged_enemies(board, (0, 0), 5, enemies) == {(1, 0), (0, 1)}
    # moving to (1,1) stays next to both: nobody strikes
    assert leaving_strikers(board, (0, 0), (1, 1), 5, enemies) == frozenset()
    # moving to (-2,0) leaves both
    assert leaving_strikers(board, (0, 0), (-2, 0), 5, enemies) == {(1, 0), (0, 1)}
    # the hill hex (2,0) at level 9 is 8 above (1,0) and (3,0): more than their height 5, so no engagement there
    assert engaged_enemies(board, (2, 0), 5, enemies) == frozenset()
    assert leaving_strikers(board, (0, 0), (2, 0), 5, enemies) == {(1, 0), (0, 1)}


def test_double_space_figure_eight_hexes_around_and_level_ends() -> None:
    around = around_double((0, 0), (1, 0))
    assert len(around) == 8 and (0, 0) not in around and (1, 0) not in around
    board = flat(h1_0=Cell(2))
    assert double_space_end_ok(board, (0, 0), (0, 1))
    assert not double_space_end_ok(board, (0, 0), (1, 0))
    assert not double_space_end_ok(board, (0, 0), (2, 0))


def test_s3_a_double_space_figure_crosses_one_water_hex_and_stops_in_a_second() -> None:
    one = flat(h1_0=Cell(1, "water"))
    mover = Mover("p1", height=5, move=4, double=True)
    assert reachable(one, (0, 0), mover, {})[(2, 0)] == 2  # through the water hex at 1,0 without stopping
    two = flat(h1_0=Cell(1, "water"), h2_0=Cell(1, "water"), h1_m1=Cell(9), h1_1=Cell(9), h2_m1=Cell(9),
               h2_1=Cell(9), h0_1=Cell(9), h0_m1=Cell(9), hm1_0=Cell(9), hm1_1=Cell(9))
    wading = reachable(two, (0, 0), mover, {})
    assert wading[(2, 0)] == 2 and (3, 0) not in wading  # both its hexes in the water: it stops there
    way = plan(two, (0, 0), (2, 0), mover, {})
    assert way is not None and way.hexes == ((1, 0), (2, 0))
    assert plan(two, (0, 0), (3, 0), mover, {}) is None
    single = Mover("p1", height=5, move=4)
    assert reachable(one, (0, 0), single, {})[(2, 0)] == 3  # a single-space figure stops in it: round it


def test_flying_costs_one_a_hex_passes_over_figures_and_stops_only_where_it_lands() -> None:
    board = flat(h1_0=Cell(9), h2_0=Cell(1, "water"))
    flyer = Mover("p1", height=5, move=3, flying=True)
    ends = reachable(board, (0, 0), flyer, {(1, 0): ("p2", False)})
    assert ends[(3, 0)] == 3  # over a level-9 hex held by an enemy and through water
    assert (1, 0) not in ends


def test_plan_takes_the_way_with_the_fewest_falling_dice_then_the_least_movement() -> None:
    board = flat(h0_0=Cell(6), h0_1=Cell(3))
    mover = Mover("p1", height=5, move=5)
    path = plan(board, (0, 0), (1, 0), mover, {})
    assert path is not None and path.fall_dice == 0 and path.hexes == ((0, 1), (1, 0)) and path.cost == 2
    short = Mover("p1", height=5, move=1)
    forced = plan(board, (0, 0), (1, 0), short, {})
    assert forced is not None and forced.fall_dice == 1 and forced.hexes == ((1, 0),)


def test_s5_range_across_a_gap_in_the_map_is_counted_round_it_along_the_map() -> None:
    # the source: where the line crosses a part of the map with no hexes (an inlet), count the range round it
    inlet = {(0, 0), (0, 1), (0, 2), (0, 3)}  # cut 4 hexes up into the map from its south edge
    board = Board({h: c for h, c in flat(3).cells.items() if h not in inlet})
    assert distance((-1, 2), (1, 2)) == 2
    assert board.spaces((-1, 2), (1, 2)) == 7  # up (-1,1) (-1,0), round the head (0,-1) (1,-1), down (1,0) (1,1) (1,2)
    assert board.spaces((-1, -1), (1, -1)) == 2  # beyond the inlet's head: straight
    assert flat(3).spaces((-1, 2), (1, 2)) == 2  # no gap: the hex distance
    assert Board({(0, 0): Cell(1), (5, 0): Cell(1)}).spaces((0, 0), (5, 0)) is None  # two islands
