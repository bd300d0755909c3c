"""Preparation (§2): the setup checked and turned into the opening events; and a recorded opening read back.

A setup is the body of ``POST /games``::

    {"system": "light-wars",
     "players": [{"id": "p1", "name": "Ann", "army": "balanced"},
                 {"id": "p2", "name": "Bob", "army": {"units": ["king", "cavalry", ...], "tactics": ["battle-cry"]}}],
     "variant": {"mode": "sealed", "size": "small", "deployment": "alternate"},
     "seed": 42, "position": {...}?}

``size`` small / medium / large sets the total cost and the maximum turns (§2.1: 20/5, 30/8, 40/12); ``custom``
takes ``total_cost`` and ``max_turns``. The position format is in docs/light-wars.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from msgspec import UNSET

from engine.catalogue import game_catalogue
from engine.errors import SetupError
from engine.light_wars.board import FACINGS, square_name
from engine.light_wars.catalogue import (
    CATALOGUES,
    DEFAULT,
    MAX_TOTAL_COST,
    MAX_TURNS,
    MAX_UNITS,
    SIZES,
    Tables,
    tables_of,
)
from engine.prng import SplitMix64
from engine.system import Seat, SeatCounts, seat_id
from events.light_wars import (
    ArmyRecord,
    DieRolled,
    GameStarted,
    LightWarsEvent,
    PositionRecord,
    PositionUnit,
    RollOffTied,
    RollOffWon,
    SeatRecord,
    UnitRecord,
    Variant,
)

SYSTEM_NAME = "light-wars"
RULES_VERSION = "light-wars/2"  # 2: R6, turning at any point of an action (issue 28)
PRNG = "splitmix64-d6/1"  # a die = SplitMix64's bounded draw below(6) + 1 (engine.prng)
SEATS = SeatCounts(2, 2)  # red and blue (§2.1)
MODES = ("sealed", "table")
DEPLOYMENTS = ("alternate", "screen")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def seats_of(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    players = setup.get("players")
    if not isinstance(players, list) or len(players) not in SEATS or not all(isinstance(p, dict) for p in players):
        raise SetupError("invalid_setup", "§2.1", f"Light Wars is played by {SEATS} players (red and blue)")
    for i, player in enumerate(players):
        if player.get("id", seat_id(i)) != seat_id(i):
            raise SetupError("invalid_setup", "contract",
                             f"players are p1, p2 in seating order, not {player.get('id')!r}")
    return tuple(Seat(id=seat_id(i), index=i) for i in range(len(players)))


def variant_of(data: Any) -> Variant:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SetupError("invalid_variant", "§2.1", "the variant is an object: mode, size, total_cost, max_turns, "
                         "deployment")
    unknown = sorted(set(data) - {"mode", "size", "total_cost", "max_turns", "deployment", "map"})
    if unknown:
        raise SetupError("invalid_variant", "§2.1", f"unknown variant field {unknown[0]!r}")
    mode = data.get("mode", "sealed")
    if mode not in MODES:
        raise SetupError("invalid_variant", "§4", f"mode is sealed (dice from the seed) or table (dice entered), "
                         f"not {mode!r}")
    deployment = data.get("deployment", "alternate")
    if deployment not in DEPLOYMENTS:
        raise SetupError("invalid_variant", "§2.3", "deployment is alternate (one unit at a time) or screen (all at "
                         f"once behind a screen), not {deployment!r}")
    size = data.get("size", "custom" if "total_cost" in data or "max_turns" in data else "small")
    total, turns = data.get("total_cost"), data.get("max_turns")
    if size in SIZES:
        preset_total, preset_turns = SIZES[size]
        if total is not None and total != preset_total or turns is not None and turns != preset_turns:
            raise SetupError("invalid_variant", "§2.1", f"a {size} battle is total cost {preset_total} and "
                             f"{preset_turns} turns; for other numbers choose size custom")
        return Variant(mode=mode, size=size, total_cost=preset_total, max_turns=preset_turns, deployment=deployment)
    if size == "custom":
        if total is None or turns is None:
            raise SetupError("invalid_variant", "§2.1", "a custom battle gives both total_cost and max_turns")
        if not _is_int(total) or not 1 <= total <= MAX_TOTAL_COST:
            raise SetupError("invalid_variant", "§2.1", f"a custom battle's total cost is 1 to {MAX_TOTAL_COST}, "
                             f"not {total!r}")
        if not _is_int(turns) or not 1 <= turns <= MAX_TURNS:
            raise SetupError("invalid_variant", "§2.1", f"a custom battle lasts 1 to {MAX_TURNS} turns, not {turns!r}")
        return Variant(mode=mode, size=size, total_cost=total, max_turns=turns, deployment=deployment)
    raise SetupError("invalid_variant", "§2.1", f"size is small, medium, large or custom, not {size!r}")


def map_of(data: Any, document: dict[str, Any] | None) -> str | None:
    """The catalogue map a variant names (``"map": "sample"``): None for the catalogue's first (the one played when
    none is named)."""
    name = data.get("map") if isinstance(data, dict) else None
    if name is None:
        return None
    maps = [m["name"] for m in (document or CATALOGUES.default())["maps"]]
    if name not in maps:
        raise SetupError("invalid_variant", "R1", f"the catalogue has no map {name!r} (its maps: {', '.join(maps)})")
    return None if name == maps[0] else str(name)


def unit_ids(types: Sequence[str], tables: Tables = DEFAULT) -> tuple[UnitRecord, ...]:
    """Ids in army order: the King ``K``, the others their type's letter and a running number (``I1``, ``I2``)."""
    counts: dict[str, int] = {}
    out = []
    for t in types:
        kind = tables.units[t]
        if kind.is_king:
            out.append(UnitRecord(id="K", type=t))
            continue
        counts[t] = counts.get(t, 0) + 1
        out.append(UnitRecord(id=f"{kind.letter}{counts[t]}", type=t))
    return tuple(out)


def army_of(player: str, data: Any, variant: Variant, tables: Tables = DEFAULT) -> ArmyRecord:
    """§2.2 (R2): units and tactic tiles within the total cost, at most 10 units, exactly one King (cost 0), each on
    one of the player's bases; names and numbers from the game's catalogue (``tables``)."""
    UNIT_TYPES, TACTICS, ARMIES = tables.units, tables.tactics, tables.armies  # noqa: N806 - the catalogue's tables
    units: Any
    tactics: Any
    if isinstance(data, str):
        sample = ARMIES.get(data)
        if sample is None:
            raise SetupError("invalid_army", "R1", f"{player}: no sample army {data!r} (known: {', '.join(ARMIES)}); "
                             "or give {\"units\": [...], \"tactics\": [...]}")
        name, units, tactics = data, sample.units, sample.tactics
    elif isinstance(data, dict):
        unknown = sorted(set(data) - {"units", "tactics"})
        if unknown:
            raise SetupError("invalid_army", "§2.2", f"{player}: an army has units and tactics, not {unknown[0]!r}")
        units, tactics = data.get("units"), data.get("tactics", [])
        if not isinstance(units, (list, tuple)) or not all(isinstance(u, str) for u in units):
            raise SetupError("invalid_army", "§2.2", f"{player}: units is a list of unit types "
                             f"({', '.join(UNIT_TYPES)})")
        if not isinstance(tactics, (list, tuple)) or not all(isinstance(t, str) for t in tactics):
            raise SetupError("invalid_army", "§2.2", f"{player}: tactics is a list of tactic tiles "
                             f"({', '.join(TACTICS)})")
        name, units, tactics = "custom", tuple(units), tuple(tactics)
    else:
        raise SetupError("invalid_army", "§2.2", f"{player}: the army is a sample army's name or "
                         "{\"units\": [...], \"tactics\": [...]}")
    for u in units:
        if u not in UNIT_TYPES:
            raise SetupError("invalid_army", "R1", f"{player}: no unit type {u!r} (known: {', '.join(UNIT_TYPES)})")
    for t in tactics:
        if t not in TACTICS:
            raise SetupError("invalid_army", "R1", f"{player}: no tactic tile {t!r} (known: {', '.join(TACTICS)})")
    if len(set(tactics)) != len(tactics):
        raise SetupError("invalid_army", "R1", f"{player}: each tactic tile is in the box once")
    kings = sum(UNIT_TYPES[u].is_king for u in units)
    if kings != 1:
        raise SetupError("invalid_army", "R2", f"{player}: an army has exactly one King, not {kings}")
    if len(units) > MAX_UNITS:
        raise SetupError("invalid_army", "§2.2", f"{player}: at most {MAX_UNITS} units, not {len(units)}")
    room = len(tables.board.territory(0 if player == seat_id(0) else 1))
    if len(units) > room:
        raise SetupError("invalid_army", "§2.3", f"{player}: {len(units)} units; the territory on this map holds "
                         f"{room}")
    cost = tables.army_cost(units, tactics)
    if cost > variant.total_cost:
        raise SetupError("invalid_army", "§2.2", f"{player}: the army costs {cost}, more than the total cost "
                         f"{variant.total_cost}")
    return ArmyRecord(player=player, name=name, units=unit_ids(units, tables), tactics=tactics, cost=cost,
                      stock=tables.bases - len(units))


def position_of(data: Any, armies: Sequence[ArmyRecord], variant: Variant, tables: Tables = DEFAULT) -> PositionRecord:
    """A starting position (docs/light-wars.md): units with square and facing, whose tactics step it is."""
    if not isinstance(data, dict):
        raise SetupError("invalid_position", "position", "a position is an object: units, to_move, first?, turn?, "
                         "stock?, scores?")
    unknown = sorted(set(data) - {"units", "to_move", "first", "turn", "stock", "scores"})
    if unknown:
        raise SetupError("invalid_position", "position", f"unknown position field {unknown[0]!r}")
    players = [a.player for a in armies]
    board, UNIT_TYPES, BASES = tables.board, tables.units, tables.bases  # noqa: N806 - the game's tables
    raw = data.get("units")
    if not isinstance(raw, list) or not all(isinstance(u, dict) for u in raw):
        raise SetupError("invalid_position", "position", "units is a list of {owner, unit, square, facing}")
    units: list[PositionUnit] = []
    seen_squares: set[str] = set()
    seen_units: set[tuple[str, str]] = set()
    for item in raw:
        owner, unit, square, facing = item.get("owner"), item.get("unit"), item.get("square"), item.get("facing")
        if owner not in players:
            raise SetupError("invalid_position", "position", f"no player {owner!r}")
        army = armies[players.index(owner)]
        if unit not in {u.id for u in army.units}:
            raise SetupError("invalid_position", "position", f"{owner}'s army has no unit {unit!r} "
                             f"({', '.join(u.id for u in army.units)})")
        if not isinstance(square, str) or square not in board.squares:
            last = square_name(board.width - 1, board.height - 1)
            raise SetupError("invalid_position", "R1", f"{square!r} is not a square of the map (A1 to {last})")
        if facing not in FACINGS:
            raise SetupError("invalid_position", "position", f"facing is N, E, S or W, not {facing!r}")
        if square in seen_squares:
            raise SetupError("invalid_position", "§3.2", f"two units on {square}")
        if (owner, unit) in seen_units:
            raise SetupError("invalid_position", "position", f"{owner}'s {unit} is placed twice")
        enemy = 1 - players.index(owner)
        if square == board.castle(enemy):
            raise SetupError("invalid_position", "§5.2", f"{owner}'s {unit} on the enemy Castle {square}: that game "
                             "is already won")
        seen_squares.add(square)
        seen_units.add((owner, unit))
        units.append(PositionUnit(owner=owner, unit=unit, square=square, facing=facing))
    for army in armies:
        if (army.player, "K") not in seen_units:
            raise SetupError("invalid_position", "R2", f"{army.player}'s King is not on the map: that game is over")
    to_move = data.get("to_move")
    if to_move not in players:
        raise SetupError("invalid_position", "position", f"to_move is p1 or p2, not {to_move!r}")
    first = data.get("first", to_move)
    if first not in players:
        raise SetupError("invalid_position", "position", f"first is p1 or p2, not {first!r}")
    turn = data.get("turn", 1)
    if not _is_int(turn) or not 1 <= turn <= variant.max_turns:
        raise SetupError("invalid_position", "§3.3", f"turn is 1 to {variant.max_turns}, not {turn!r}")
    on_map = {p: sum(u.owner == p for u in units) for p in players}
    stock_in = data.get("stock") or {}
    scores_in = data.get("scores") or {}
    if not isinstance(stock_in, dict) or not isinstance(scores_in, dict):
        raise SetupError("invalid_position", "position", "stock and scores are {\"p1\": n, \"p2\": n}")
    stock, scores = {}, {}
    for i, army in enumerate(armies):
        p = army.player
        absent_cost = sum(UNIT_TYPES[u.type].cost for u in armies[1 - i].units
                          if (armies[1 - i].player, u.id) not in seen_units)
        stock[p] = stock_in.get(p, BASES - on_map[p])
        scores[p] = scores_in.get(p, absent_cost)
        if not _is_int(stock[p]) or not 0 <= stock[p] <= BASES - on_map[p]:
            raise SetupError("invalid_position", "§2.2", f"{p}'s stock is 0 to {BASES - on_map[p]} bases "
                             f"({BASES} less the units on the map), not {stock[p]!r}")
        if not _is_int(scores[p]) or not 0 <= scores[p] <= 10 * MAX_TOTAL_COST:
            raise SetupError("invalid_position", "§5.3", f"{p}'s score is a whole number >= 0, not {scores[p]!r}")
    for bad in sorted(set(stock_in) - set(players)) + sorted(set(scores_in) - set(players)):
        raise SetupError("invalid_position", "position", f"no player {bad!r}")
    units.sort(key=lambda u: (u.owner, board.order[u.square]))
    return PositionRecord(units=tuple(units), to_move=to_move, first=first, turn=turn, stock=stock, scores=scores)


def start(setup: dict[str, Any]) -> tuple[LightWarsEvent, ...]:
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "§2", "a setup is an object")
    seats = seats_of(setup)
    chosen = game_catalogue(setup, CATALOGUES)
    document, content_id = chosen.document, chosen.id
    variant = variant_of(setup.get("variant"))
    board = map_of(setup.get("variant"), document)
    tables = tables_of(document, board, content_id)
    seed = setup.get("seed")
    if variant.mode == "sealed":
        if not _is_int(seed) or not 0 <= seed < 2**63:
            raise SetupError("invalid_setup", "§4", "a sealed game rolls its dice from a seed: a whole number "
                             f"0 to 2^63-1, not {seed!r}")
    else:
        seed = None  # table mode: the dice are entered at the table; nothing is drawn
    players = setup["players"]
    names = [str(p.get("name") or s.id) for p, s in zip(players, seats, strict=True)]
    armies = tuple(army_of(s.id, p.get("army"), variant, tables) for p, s in zip(players, seats, strict=True))
    position = None if setup.get("position") is None else position_of(setup["position"], armies, variant, tables)
    started = GameStarted(
        system=SYSTEM_NAME, rules_version=RULES_VERSION,
        seats=tuple(SeatRecord(id=s.id, name=n) for s, n in zip(seats, names, strict=True)),
        variant=variant, armies=armies, bases=tables.bases, seed=seed, prng=PRNG if seed is not None else None,
        position=position, catalogue=UNSET if document is None else document,
        catalogue_id=UNSET if content_id is None else content_id, map=UNSET if board is None else board)
    if position is None and variant.deployment == "alternate" and seed is not None:
        dice, _ = roll_off(seed, "deployment")
        return (started, *dice)
    return (started,)


def roll_off(rng: int, purpose: Any) -> tuple[tuple[LightWarsEvent, ...], int]:
    """A sealed roll-off (§2.3, §2.4): each player rolls a die, ties roll again; -> the events and the generator's
    state after them."""
    gen = SplitMix64(rng)
    out: list[LightWarsEvent] = []
    while True:
        a, b = gen.below(6) + 1, gen.below(6) + 1
        out += [DieRolled(purpose=purpose, player="p1", value=a, source="prng"),
                DieRolled(purpose=purpose, player="p2", value=b, source="prng")]
        if a != b:
            out.append(RollOffWon(purpose=purpose, winner="p1" if a > b else "p2"))
            return tuple(out), gen.state
        out.append(RollOffTied(purpose=purpose))


__all__ = [
    "DEPLOYMENTS", "MODES", "PRNG", "RULES_VERSION", "SEATS", "SYSTEM_NAME", "army_of", "map_of", "position_of",
    "roll_off", "seats_of", "start", "unit_ids", "variant_of",
]
