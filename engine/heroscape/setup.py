"""Preparation: the setup checked and turned into the opening event (``history`` reads a recorded one back).

A setup is the body of ``POST /games``::

    {"system": "heroscape",
     "players": [{"id": "p1", "name": "Ann", "army": "utgar"},
                 {"id": "p2", "name": "Bob", "army": {"cards": ["raelin", "izumi-samurai"]}}],
     "variant": {"mode": "sealed", "game": "master", "map": "twin-hill", "max_rounds": 12},
     "seed": 42, "position": {...}?}

The game carries its map and army cards in ``game_started``; the position format is in docs/heroscape.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from msgspec import UNSET

from engine.catalogue import game_catalogue
from engine.errors import SetupError
from engine.heroscape.catalogue import CATALOGUES, DEFAULT, Card, Tables, tables_of
from engine.heroscape.geometry import distance
from engine.heroscape.state import figure_ids
from engine.system import Seat, SeatCounts, seat_id
from events.heroscape import (
    ArmyRecord,
    BoardRecord,
    CardRecord,
    GameStarted,
    HeroScapeEvent,
    PositionFigure,
    PositionRecord,
    SeatRecord,
    Special,
    Variant,
)

SYSTEM_NAME = "heroscape"
# 2 (issue 28): a double-space figure may wade into a second water hex and stops there (was refused); range is
# counted over the map's hexes, round an inlet (was straight across it); the same on maps without gaps in them
RULES_VERSION = "heroscape/2"
PRNG = "splitmix64-dice/1"  # a combat die = below(6) + 1, a d20 = below(20) + 1 (engine.prng), one draw a die
SEATS = SeatCounts(2, 2)
MODES = ("sealed", "table")
GAMES = ("master", "basic")
MAX_ROUNDS = 50


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def card_record(card: Card) -> CardRecord:
    return CardRecord(key=card.key, name=card.name, kind=card.kind, figures=card.figures, life=card.life,  # type: ignore[arg-type]
                      move=card.move, range=card.range, attack=card.attack, defense=card.defense,
                      height=card.height, points=card.points, space=card.space, powers=card.powers,
                      specials=tuple(Special(name=s.name, range=s.range, attack=s.attack, extra=s.extra, area=s.area,
                                             once=s.once) for s in card.specials))


def seats_of(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    players = setup.get("players")
    if not isinstance(players, list) or len(players) not in SEATS or not all(isinstance(p, dict) for p in players):
        raise SetupError("invalid_setup", "§2", f"this HeroScape scenario is played by {SEATS} players")
    for i, player in enumerate(players):
        if player.get("id", seat_id(i)) != seat_id(i):
            raise SetupError("invalid_setup", "contract",
                             f"players are p1, p2 in seating order, not {player.get('id')!r}")
    return tuple(Seat(id=seat_id(i), index=i) for i in range(len(players)))


def variant_of(data: Any, tables: Tables = DEFAULT) -> Variant:
    """The variant; ``map`` is a map id of the game's catalogue (``tables``): its first map when none is named (the
    default catalogue's: twin-hill)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SetupError("invalid_variant", "§8", "the variant is an object: mode, game, map, max_rounds")
    unknown = sorted(set(data) - {"mode", "game", "map", "max_rounds"})
    if unknown:
        raise SetupError("invalid_variant", "§8", f"unknown variant field {unknown[0]!r}")
    mode = data.get("mode", "sealed")
    if mode not in MODES:
        raise SetupError("invalid_variant", "§5", f"mode is sealed (dice from the seed) or table (dice entered), "
                         f"not {mode!r}")
    game = data.get("game", "master")
    if game not in GAMES:
        raise SetupError("invalid_variant", "§5", f"game is master (wounds) or basic (more skulls destroys), "
                         f"not {game!r}")
    board = data.get("map") or next(iter(tables.maps))  # none named (or null): the catalogue's first
    if board not in tables.maps:
        raise SetupError("invalid_variant", "§1", f"the catalogue has no map {board!r} (its maps: "
                         f"{', '.join(tables.maps)})")
    rounds = data.get("max_rounds", 12)
    if not _is_int(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise SetupError("invalid_variant", "§8", f"max_rounds is 1 to {MAX_ROUNDS}, not {rounds!r}")
    return Variant(mode=mode, game=game, map=board, max_rounds=rounds)


def army_of(player: str, data: Any, tables: Tables = DEFAULT) -> ArmyRecord:
    """An army of the game's catalogue by id, or ``{"cards": [card ids]}`` of its cards (each card once)."""
    cards, armies = tables.cards, tables.armies
    if isinstance(data, str):
        keys = armies.get(data)
        if keys is None:
            raise SetupError("invalid_army", "§1", f"{player}: no sample army {data!r} (known: {', '.join(armies)}); "
                             "or give {\"cards\": [...]}")
        name = data
    elif isinstance(data, dict):
        unknown = sorted(set(data) - {"cards"})
        if unknown:
            raise SetupError("invalid_army", "§1", f"{player}: an army is {{\"cards\": [...]}}, not {unknown[0]!r}")
        raw = data.get("cards")
        if not isinstance(raw, list) or not raw or not all(isinstance(c, str) for c in raw):
            raise SetupError("invalid_army", "§1", f"{player}: cards is a non-empty list of army cards "
                             f"({', '.join(cards)})")
        keys, name = tuple(raw), "custom"
    else:
        raise SetupError("invalid_army", "§1", f"{player}: the army is a sample army's name or {{\"cards\": [...]}}")
    for k in keys:
        if k not in cards:
            raise SetupError("invalid_army", "§1", f"{player}: no army card {k!r} (known: {', '.join(cards)})")
    if len(set(keys)) != len(keys):
        raise SetupError("invalid_army", "§1", f"{player}: each army card is in an army once")
    records = tuple(card_record(cards[k]) for k in keys)
    return ArmyRecord(player=player, name=name, cards=records, points=sum(c.points for c in records))


def _hex(value: Any, where: str) -> tuple[int, int]:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise SetupError("invalid_position", "position", f"{where}: a hex is [q, r], not {value!r}")
    return (value[0], value[1])


def position_of(data: Any, armies: Sequence[ArmyRecord], board: BoardRecord) -> PositionRecord:
    """A starting position (docs/heroscape.md): figures with hex (tail), wounds; the round whose markers come."""
    if not isinstance(data, dict):
        raise SetupError("invalid_position", "position", "a position is an object: figures, round?, used_glyphs?, "
                         "specials_used?")
    unknown = sorted(set(data) - {"figures", "round", "used_glyphs", "specials_used"})
    if unknown:
        raise SetupError("invalid_position", "position", f"unknown position field {unknown[0]!r}")
    players = [a.player for a in armies]
    cells = {(q, r): (level, terrain, glyph) for q, r, level, terrain, glyph in board.cells}
    raw = data.get("figures")
    if not isinstance(raw, list) or not all(isinstance(f, dict) for f in raw):
        raise SetupError("invalid_position", "position", "figures is a list of {owner, figure, hex, tail?, wounds?}")
    out: list[PositionFigure] = []
    taken: set[tuple[int, int]] = set()
    seen: set[tuple[str, str]] = set()
    for item in raw:
        owner, figure = item.get("owner"), item.get("figure")
        if owner not in players:
            raise SetupError("invalid_position", "position", f"no player {owner!r}")
        army = armies[players.index(owner)]
        card = next((c for c in army.cards if figure in figure_ids(c)), None)
        if card is None:
            raise SetupError("invalid_position", "position", f"{owner}'s army has no figure {figure!r}")
        if (owner, figure) in seen:
            raise SetupError("invalid_position", "position", f"{owner}'s {figure} is placed twice")
        h = _hex(item.get("hex"), f"{owner}'s {figure}")
        tail = None if item.get("tail") is None else _hex(item.get("tail"), f"{owner}'s {figure}")
        hexes = [h] if tail is None else [h, tail]
        if (card.space == 2) != (tail is not None):
            raise SetupError("invalid_position", "§3", f"{owner}'s {figure}: a double-space figure gives hex and "
                             "tail, a single-space one only hex")
        for x in hexes:
            if x not in cells:
                raise SetupError("invalid_position", "§1", f"{owner}'s {figure}: {list(x)} is off the map")
            if x in taken:
                raise SetupError("invalid_position", "§3", f"two figures on {list(x)}")
            taken.add(x)
        if tail is not None and (distance(h, tail) != 1 or cells[h][0] != cells[tail][0]):
            raise SetupError("invalid_position", "§3", f"{owner}'s {figure}: a double-space figure stands on two "
                             "adjacent hexes of one level")
        wounds = item.get("wounds", 0)
        if not _is_int(wounds) or not 0 <= wounds < card.life:
            raise SetupError("invalid_position", "§5", f"{owner}'s {figure}: wounds are 0 to {card.life - 1}, not "
                             f"{wounds!r}")
        seen.add((owner, figure))
        out.append(PositionFigure(owner=owner, figure=figure, hex=h, tail=tail, wounds=wounds))
    for p in players:
        if not any(o == p for o, _ in seen):
            raise SetupError("invalid_position", "§8", f"{p} has no figure on the map: that game is over")
    rnd = data.get("round", 1)
    if not _is_int(rnd) or not 1 <= rnd <= MAX_ROUNDS:
        raise SetupError("invalid_position", "§2", f"round is 1 to {MAX_ROUNDS}, not {rnd!r}")
    glyphs = {g for _, _, g in cells.values() if g}
    used = data.get("used_glyphs", [])
    if not isinstance(used, list) or any(g not in glyphs for g in used):
        raise SetupError("invalid_position", "§6",
                         f"used_glyphs names glyphs of this map ({', '.join(sorted(glyphs))})")
    specials = data.get("specials_used", {})
    if not isinstance(specials, dict) or any(p not in players or not isinstance(v, list) for p, v in specials.items()):
        raise SetupError("invalid_position", "§7", "specials_used is {player: [\"card:special\", ...]}")
    for p, spent in specials.items():
        army = armies[players.index(p)]
        names = {f"{c.key}:{s.name}" for c in army.cards for s in c.specials if s.once}
        for s in spent:
            if s not in names:
                raise SetupError("invalid_position", "§7", f"{p} has no once-a-game special {s!r}")
    out.sort(key=lambda f: (f.owner, f.figure))
    return PositionRecord(figures=tuple(out), round=rnd, used=tuple(sorted(set(used))),
                          specials_used={p: tuple(v) for p, v in sorted(specials.items())})


def start(setup: dict[str, Any]) -> tuple[HeroScapeEvent, ...]:
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "§1", "a setup is an object")
    seats = seats_of(setup)
    chosen = game_catalogue(setup, CATALOGUES)
    document, content_id = chosen.document, chosen.id
    tables = tables_of(document, content_id)
    variant = variant_of(setup.get("variant"), tables)
    seed = setup.get("seed")
    if variant.mode == "sealed":
        if not _is_int(seed) or not 0 <= seed < 2**63:
            raise SetupError("invalid_setup", "§5", "a sealed game rolls its dice from a seed: a whole number "
                             f"0 to 2^63-1, not {seed!r}")
    else:
        seed = None
    players = setup["players"]
    names = [str(p.get("name") or s.id) for p, s in zip(players, seats, strict=True)]
    armies = tuple(army_of(s.id, p.get("army"), tables) for p, s in zip(players, seats, strict=True))
    board = tables.maps[variant.map]
    position = None if setup.get("position") is None else position_of(setup["position"], armies, board)
    return (GameStarted(
        system=SYSTEM_NAME, rules_version=RULES_VERSION,
        seats=tuple(SeatRecord(id=s.id, name=n) for s, n in zip(seats, names, strict=True)),
        variant=variant, armies=armies, board=board, seed=seed, prng=PRNG if seed is not None else None,
        position=position, catalogue=UNSET if document is None else document,
        catalogue_id=UNSET if content_id is None else content_id),)


__all__ = ["MODES", "PRNG", "RULES_VERSION", "SEATS", "SYSTEM_NAME", "army_of", "card_record", "position_of",
           "seats_of", "start", "variant_of"]
