"""HeroScape map geometry: axial hexes with levels, movement costs, falling, engagement, line of sight (R1).

Rules: ``shared/rules/heroscape.md`` §3 (movement), §4 (engagement), §5 (range, line of sight R1, height bonus).
Pure functions over a frozen ``Board``; no dice (falling returns how many dice are rolled, the caller rolls them).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

Hex = tuple[int, int]
"""Axial coordinates ``(q, r)``."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TERRAINS = frozenset({"grass", "rock", "sand", "road", "water"})
ROAD_BONUS = 3
HIGH_GROUND = 10


@dataclass(frozen=True, slots=True)
class Cell:
    """One hex of the map: its level (height in layers), terrain and optional glyph (§1)."""

    level: int
    terrain: str = "grass"
    glyph: str | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """The map: cells by hex, and obstacles standing on hex edges with their height (§1)."""

    cells: Mapping[Hex, Cell]
    obstacles: Mapping[frozenset[Hex], int] = field(default_factory=dict)
    _spaces: dict[Hex, dict[Hex, int]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _straight: dict[tuple[Hex, Hex], bool] = field(default_factory=dict, init=False, compare=False, repr=False)
    _edges: dict[tuple[Hex, Hex], int] = field(default_factory=dict, init=False, compare=False, repr=False)
    around: dict[Hex, tuple[tuple[Hex, Cell], ...]] = field(default_factory=dict, init=False, compare=False,
                                                             repr=False)
    """Each hex's neighbours on the map with their cells, in ``DIRECTIONS`` order (made once per map; read only)."""

    def __post_init__(self) -> None:
        for edge, height in self.obstacles.items():  # each obstacle by its two hexes in either order
            a, b = tuple(edge)
            self._edges[(a, b)] = self._edges[(b, a)] = height
        cells = self.cells
        for h in cells:
            self.around[h] = tuple((n, cells[n]) for n in neighbours(h) if n in cells)

    def level(self, h: Hex) -> int:
        return self.cells[h].level

    def obstacle(self, a: Hex, b: Hex) -> int:
        return self._edges.get((a, b), 0)

    def spaces(self, a: Hex, b: Hex) -> int | None:
        """Range in spaces (§5), levels ignored, counted over the map's hexes: the source's rule for an inlet (a
        part of the map's shape with no hexes) — where the straight line crosses one, the range is counted along the
        map round it. Equal to ``distance`` wherever a shortest way lies on the map (on a map without gaps,
        always); None when no way over the map joins them. When a way of ``distance`` steps lies on the map
        (``_straight``, kept per pair) that is the range; else one breadth-first search per ``a``, kept."""
        found = self._spaces.get(a)
        if found is not None:
            return found.get(b)
        if b in self.cells:
            d = distance(a, b)
            if d <= 1:
                return d
            straight = self._straight.get((a, b))
            if straight is None:
                straight = self._straight[(a, b)] = _straight(self.cells, a, b, d)
            if straight:
                return d  # no way is shorter than ``distance``
        found = self._spaces[a] = _spaces_from(self, a)
        return found.get(b)


def _straight(cells: Mapping[Hex, Cell], a: Hex, b: Hex, d: int) -> bool:
    """Whether a way of ``d`` (``distance(a, b)``, 2 or more) steps from ``a`` to ``b`` (a hex of the map) lies
    on the map's hexes: each step one hex nearer ``b``, layer by layer (the hexes ``k`` steps short of ``b``)."""
    layer = {a}
    bq, br = b
    for k in range(d - 1, 0, -1):
        nearer: set[Hex] = set()
        for h in layer:
            for n in neighbours(h):
                dq, dr = n[0] - bq, n[1] - br
                if (abs(dq) + abs(dr) + abs(dq + dr)) == 2 * k and n in cells:  # ``distance(n, b) == k``
                    nearer.add(n)
        if not nearer:
            return False
        layer = nearer
    return True  # the last layer's hexes are next to ``b``


def _spaces_from(board: Board, a: Hex) -> dict[Hex, int]:
    """Breadth-first over the map's hexes: how many spaces from ``a`` to each hex it reaches (past the first step,
    each hex's neighbours on the map are ``Board.around``'s)."""
    found = {a: 0}
    frontier = [n for n in neighbours(a) if n in board.cells]  # ``a`` may be off the map
    for n in frontier:
        found[n] = 1
    around = board.around
    steps = 1
    while frontier:
        steps += 1
        reached = []
        for h in frontier:
            for n, _ in around[h]:
                if n not in found:
                    found[n] = steps
                    reached.append(n)
        frontier = reached
    return found


@dataclass(frozen=True, slots=True)
class Mover:
    """What movement needs to know about the moving figure (§3).

    ``double``: a double-space figure (its head's path is searched; water does not stop it, but it crosses one
    water hex at a time). ``flying`` (a power, §7, our sample card text): every hex costs 1 whatever its level,
    figures are flown over, water and glyphs stop it only where it lands, and it never falls.
    """

    player: str
    height: int
    move: int
    life: int = 1
    double: bool = False
    flying: bool = False


Occupant = tuple[str, bool]
"""Who stands on a hex: ``(player, engaged)``."""


@cache
def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Range in spaces, ignoring levels (§5)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def step_cost(board: Board, src: Hex, dst: Hex, height: int) -> int | None:
    """Cost of one step (§3): 1, plus 1 per level climbed; ``None`` when the climb is as high as the figure or more."""
    if dst not in board.cells:
        return None
    climb = board.level(dst) - board.level(src)
    if climb >= height:
        return None
    return 1 + max(0, climb)


def _stops(board: Board, h: Hex, mover: Mover | None = None) -> bool:
    """Whether entering ``h`` ends the move (§3): a glyph, or water for a single-space figure (a double-space one:
    see ``_lands``)."""
    cell = board.cells[h]
    if mover is not None and mover.flying:
        return False
    if cell.glyph is not None:
        return True
    return cell.terrain == "water" and not (mover is not None and mover.double)


def _lands(board: Board, here: Hex, nxt: Hex, mover: Mover) -> bool:
    """§3: a double-space figure crosses one water hex; stepping from water into water puts both its hexes in the
    water (its tail follows its head), and there it stops."""
    cells = board.cells
    return mover.double and not mover.flying and cells[nxt].terrain == "water" and cells[here].terrain == "water"


def _step(board: Board, here: Hex, nxt: Hex, mover: Mover, occupants: Mapping[Hex, Occupant],
          healing_glyphs: frozenset[str], roads_only: bool) -> int | None:
    """The cost of the step ``here`` -> ``nxt`` for ``mover``, or None when it may not take it (§3)."""
    cell = board.cells.get(nxt)
    if cell is None:
        return None
    if mover.flying:
        cost = 1
    else:
        climb = cell.level - board.cells[here].level
        if climb >= mover.height:
            return None
        cost = 1 + climb if climb > 0 else 1
    if roads_only and cell.terrain != "road":
        return None
    if cell.glyph in healing_glyphs and mover.life <= 1:
        return None
    occupant = occupants.get(nxt)
    if occupant is not None and not mover.flying and (occupant[0] != mover.player or occupant[1]):
        return None
    return cost


def reachable(
    board: Board,
    start: Hex,
    mover: Mover,
    occupants: Mapping[Hex, Occupant],
    healing_glyphs: frozenset[str] = frozenset(),
    *,
    stopping: bool = True,
) -> dict[Hex, int]:
    """Every hex the figure may end its move on (a double-space figure: its head), with the least movement spent
    (§3).

    Friends that are not engaged may be passed through, enemies and engaged friends never; no move ends on an
    occupied hex; entering water or a glyph stops the figure (a double-space figure: a second water hex in a row); a
    figure with life 1 cannot enter a healing glyph. Moving only along road hexes adds ``ROAD_BONUS`` spaces.
    ``stopping=False`` lets water and glyphs be passed (to say why a hex cannot be reached).
    """
    best = _search(board, start, mover, occupants, healing_glyphs, mover.move, roads_only=False, stopping=stopping)
    if board.cells[start].terrain == "road":
        road = _search(board, start, mover, occupants, healing_glyphs, mover.move + ROAD_BONUS, roads_only=True,
                       stopping=stopping)
        for h, cost in road.items():
            if h not in best or cost < best[h]:
                best[h] = cost
    return {h: c for h, c in best.items() if h == start or h not in occupants}


def _search(
    board: Board,
    start: Hex,
    mover: Mover,
    occupants: Mapping[Hex, Occupant],
    healing_glyphs: frozenset[str],
    budget: int,
    *,
    roads_only: bool,
    stopping: bool = True,
) -> dict[Hex, int]:
    best: dict[Hex, int] = {start: 0}  # hexes the figure may go on from
    landed: dict[Hex, int] = {}  # hexes where it stops on arriving (a double-space figure's second water hex)
    queue: list[tuple[int, Hex]] = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best.get(here, budget + 1) or (stopping and here != start and _stops(board, here, mover)):
            continue
        for nxt in neighbours(here):
            cost = _step(board, here, nxt, mover, occupants, healing_glyphs, roads_only)
            if cost is None or spent + cost > budget:
                continue
            total = spent + cost
            if stopping and mover.double and _lands(board, here, nxt, mover):
                if total < landed.get(nxt, budget + 1):
                    landed[nxt] = total
            elif total < best.get(nxt, budget + 1):
                best[nxt] = total
                heapq.heappush(queue, (total, nxt))
    for h, total in landed.items():
        if total < best.get(h, budget + 1):
            best[h] = total
    return best


def fall_dice(board: Board, src: Hex, dst: Hex, height: int) -> int:
    """Combat dice rolled for falling from ``src`` to ``dst`` (§3): 0, 1 (drop ≥ height) or 2 (drop ≥ height + 10).

    Falling into water does no damage.
    """
    if board.cells[dst].terrain == "water":
        return 0
    drop = board.level(src) - board.level(dst)
    if drop >= height + HIGH_GROUND:
        return 2
    if drop >= height:
        return 1
    return 0


def engaged(board: Board, a: Hex, height_a: int, b: Hex, height_b: int) -> bool:
    """Whether two adjacent enemy figures are engaged (§4).

    Not when the level difference exceeds the lower figure's height, nor when an obstacle between them is taller
    than both figures.
    """
    if distance(a, b) != 1:
        return False
    la, lb = board.level(a), board.level(b)
    lower_height = height_a if la < lb else height_b if lb < la else min(height_a, height_b)
    if abs(la - lb) > lower_height:
        return False
    return board.obstacle(a, b) <= max(height_a, height_b)


def height_bonus(own_level: int, other_level: int) -> int:
    """Extra dice for standing higher (§5): +1 when higher, +2 when ``HIGH_GROUND`` or more levels higher."""
    diff = own_level - other_level
    if diff >= HIGH_GROUND:
        return 2
    return 1 if diff > 0 else 0


def _cube_round(x: float, z: float) -> Hex:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return (int(rx), int(rz))


def line_hexes(a: Hex, b: Hex) -> tuple[tuple[Hex, Hex, float], ...]:
    """The hexes the straight segment from ``a`` to ``b`` passes, as ``(hex, twin, t)`` at fraction ``t``.

    The segment is nudged both ways off hex corners; ``twin`` differs from ``hex`` where it runs along an edge.
    """
    n = distance(a, b)
    out: list[tuple[Hex, Hex, float]] = []
    eps = 1e-6
    for i in range(n + 1):
        t = i / n if n else 0.0
        x = a[0] + (b[0] - a[0]) * t
        z = a[1] + (b[1] - a[1]) * t
        out.append((_cube_round(x + eps, z + 2 * eps), _cube_round(x - eps, z - 2 * eps), t))
    return tuple(out)


def line_of_sight(board: Board, a: Hex, height_a: int, b: Hex, height_b: int) -> bool:
    """R1: the segment from the attacker's eye to the target's centre is blocked by any hex or obstacle above it.

    Eye = level + height; centre = level + height / 2. A hex between them blocks when its level rises above the
    segment at that point; where the segment runs along an edge it is blocked only if both hexes beside it block.
    An obstacle on an edge the segment crosses blocks when its top (higher side's level + its height) rises above
    the segment there.
    """
    eye = board.level(a) + height_a
    centre = board.level(b) + height_b / 2
    steps = line_hexes(a, b)

    def above(h: Hex, t: float) -> bool:
        if h in (a, b):
            return False
        cell = board.cells.get(h)
        return cell is not None and cell.level > eye + (centre - eye) * t

    for h, twin, t in steps[1:-1]:
        if above(h, t) and above(twin, t):
            return False
    for (h1, _, t1), (h2, _, t2) in zip(steps, steps[1:], strict=False):
        wall = board.obstacle(h1, h2)
        if wall and h1 in board.cells and h2 in board.cells:
            top = max(board.level(h1), board.level(h2)) + wall
            if top > eye + (centre - eye) * (t1 + t2) / 2:
                return False
    return True


def engaged_enemies(board: Board, at: Hex, height: int, enemies: Mapping[Hex, int]) -> frozenset[Hex]:
    """The enemy hexes a figure of ``height`` at ``at`` is engaged with (§4); ``enemies`` maps hex -> height."""
    return frozenset(h for h in neighbours(at) if h in enemies and engaged(board, at, height, h, enemies[h]))


def leaving_strikers(board: Board, start: Hex, end: Hex, height: int, enemies: Mapping[Hex, int]) -> frozenset[Hex]:
    """§4 leaving engagement: the enemies engaged with the figure where it started and not where it ends.

    Each rolls one combat die against it (``combat.leaving_engagement_wounds``). Decision: judged from the move's
    start and end hexes (a figure that stays engaged with an enemy is not struck by it).
    """
    return engaged_enemies(board, start, height, enemies) - engaged_enemies(board, end, height, enemies)


def around_double(a: Hex, b: Hex) -> frozenset[Hex]:
    """§7: the 8 hexes around a double-space figure's two hexes (what a grenade or explosion against it affects)."""
    if distance(a, b) != 1:
        raise ValueError(f"a double-space figure stands on two adjacent hexes, not {a} and {b}")
    return (frozenset(neighbours(a)) | frozenset(neighbours(b))) - {a, b}


def double_space_end_ok(board: Board, a: Hex, b: Hex) -> bool:
    """§3: a double-space figure ends its move on two adjacent hexes of the same level."""
    return a in board.cells and b in board.cells and distance(a, b) == 1 and board.level(a) == board.level(b)


@dataclass(frozen=True, slots=True)
class Path:
    """A move's way (§3): the hexes entered after the start, what they cost, whether it kept to the road, and the
    combat dice rolled for falling on the way."""

    hexes: tuple[Hex, ...]
    cost: int
    road: bool
    fall_dice: int


def plan(
    board: Board,
    start: Hex,
    end: Hex,
    mover: Mover,
    occupants: Mapping[Hex, Occupant],
    healing_glyphs: frozenset[str] = frozenset(),
) -> Path | None:
    """The way from ``start`` to ``end`` a careful player takes: the fewest falling dice, then the least movement
    (decision, docs/heroscape.md); None when ``end`` cannot be reached. Searches (hex, movement spent) states, so a
    longer way that avoids a fall is found when the figure's move allows it."""
    road = board.cells[start].terrain == "road"
    for search in (_quick_plan, _plan):  # the quick search is exact when it finds a way without a fall
        found = search(board, start, end, mover, occupants, healing_glyphs, mover.move, roads_only=False)
        if found is not None and found.fall_dice == 0:
            return found  # no way along the road only is cheaper than the cheapest way of all
        if road:
            on_road = search(board, start, end, mover, occupants, healing_glyphs, mover.move + ROAD_BONUS,
                             roads_only=True)
            if on_road is not None and (found is None or (on_road.fall_dice, on_road.cost) < (found.fall_dice,
                                                                                                found.cost)):
                found = Path(on_road.hexes, on_road.cost, True, on_road.fall_dice)
        if found is not None and found.fall_dice == 0:
            return found
    return found


def _quick_plan(
    board: Board,
    start: Hex,
    end: Hex,
    mover: Mover,
    occupants: Mapping[Hex, Occupant],
    healing_glyphs: frozenset[str],
    budget: int,
    *,
    roads_only: bool,
) -> Path | None:
    """Dijkstra on (falling dice, movement) within the budget: the least movement among ways without a fall is
    exact; a way with falls may miss a longer one with fewer (``plan`` then searches every state)."""
    if end not in board.cells or (end != start and end in occupants):
        return None
    # A label (falling dice, movement spent) is one int, ``falls << 16 | spent``, and a queue entry's key
    # ``falls << 32 | estimate << 16 | spent``: ordered as the tuples they pack (a move spends far less than 2**16).
    best: dict[Hex, int] = {start: 0}
    previous: dict[Hex, Hex] = {}
    cells, around = board.cells, board.around
    flying, height, double = mover.flying, mover.height, mover.double
    player, fragile = mover.player, mover.life <= 1
    eq, er = end
    push, pop = heapq.heappush, heapq.heappop
    # A* on the movement: a step costs at least 1, so the hexes left to ``end`` never overestimate it. The steps are
    # ``_step``, ``_stops`` and ``_lands`` written out (this loop is most of a move's decision)
    queue: list[tuple[int, Hex]] = [(distance(start, end) << 16, start)]
    while queue:
        key, here = pop(queue)
        falls, spent = key >> 32, key & 0xFFFF
        if (falls << 16 | spent) > best[here]:
            continue
        if here == end:
            hexes: list[Hex] = []
            node = end
            while node != start:
                hexes.append(node)
                node = previous[node]
            return Path(tuple(reversed(hexes)), spent, roads_only, falls)
        source = cells[here]
        if here != start and not flying and (source.glyph is not None or (source.terrain == "water" and not double)):
            continue  # entering a glyph or water ended the move here (``_stops``)
        level = source.level
        in_water = source.terrain == "water"
        for nxt, cell in around[here]:
            if flying:
                cost = 1
            else:
                climb = cell.level - level
                if climb >= height:
                    continue
                cost = 1 + climb if climb > 0 else 1
            total = spent + cost
            if total > budget or (roads_only and cell.terrain != "road"):
                continue
            if fragile and cell.glyph in healing_glyphs:
                continue
            occupant = occupants.get(nxt)
            if occupant is not None and not flying and (occupant[0] != player or occupant[1]):
                continue
            if double and not flying and in_water and nxt != end and cell.terrain == "water":
                continue  # a double-space figure landing in a second water hex goes no further (``_lands``)
            fell = falls
            if not flying:
                drop = level - cell.level
                if drop >= height and cell.terrain != "water":
                    fell += 2 if drop >= height + HIGH_GROUND else 1
            label = fell << 16 | total
            if label < best.get(nxt, _UNREACHED):
                best[nxt] = label
                previous[nxt] = here
                dq, dr = nxt[0] - eq, nxt[1] - er
                push(queue, (fell << 32 | (total + (abs(dq) + abs(dr) + abs(dq + dr)) // 2) << 16 | total, nxt))
    return None


_UNREACHED = 1 << 62  # above every label


def _plan(
    board: Board,
    start: Hex,
    end: Hex,
    mover: Mover,
    occupants: Mapping[Hex, Occupant],
    healing_glyphs: frozenset[str],
    budget: int,
    *,
    roads_only: bool,
) -> Path | None:
    if end not in board.cells or (end != start and end in occupants):
        return None
    # state (hex, spent) -> (falling dice so far, previous state); spent only grows, so states settle in order
    best: dict[tuple[Hex, int], tuple[int, tuple[Hex, int] | None]] = {(start, 0): (0, None)}
    for spent in range(budget + 1):
        for (here, s), (falls, _) in sorted(((k, v) for k, v in best.items() if k[1] == spent)):
            if here != start and (here == end or _stops(board, here, mover)):
                continue  # a way through ``end`` and back is never better than stopping there
            for nxt in neighbours(here):
                cost = _step(board, here, nxt, mover, occupants, healing_glyphs, roads_only)
                if cost is None or s + cost > budget or (nxt != end and mover.double
                                                         and _lands(board, here, nxt, mover)):
                    continue
                fall = 0 if mover.flying else fall_dice(board, here, nxt, mover.height)
                key = (nxt, s + cost)
                if key not in best or falls + fall < best[key][0]:
                    best[key] = (falls + fall, (here, s))
    ends = sorted((falls, s) for (h, s), (falls, _) in best.items() if h == end)
    if not ends:
        return None
    falls, spent = ends[0]
    hexes: list[Hex] = []
    node: tuple[Hex, int] | None = (end, spent)
    while node is not None and node != (start, 0):
        hexes.append(node[0])
        node = best[node][1]
    return Path(tuple(reversed(hexes)), spent, roads_only, falls)
