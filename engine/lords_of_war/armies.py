"""Armies (§2, §9) and game setup: validation with SetupErrors naming what is wrong, and the opening events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.catalogue import game_catalogue
from engine.errors import SetupError
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.catalogue import (
    ARMY_SIZE,
    CATALOGUES,
    COMMANDER_RANKS,
    DEFAULT_ID,
    DEFAULT_TABLE,
    RANK_COUNTS,
    CardTable,
    table_for,
)
from engine.lords_of_war.prng import SHUFFLE_NAME
from engine.lords_of_war.seating import SEAT_COUNTS, SEAT_NAMES, VICTORY, Layout, layout_of
from events.lords_of_war import (
    ArmyRecord,
    GameStarted,
    HandDealt,
    KillsRecord,
    PositionRecord,
    UnitRecord,
    Variant,
)

SYSTEM_NAME = "lords-of-war"
RULES_VERSION = "lords-of-war/1"
HAND_SIZE = 6  # §3: general + 5
VARIANT_KEYS = frozenset({"mode", "intermediate", "unbounded", "kill_target", "command_target", "teams"})
SETUP_KEYS = frozenset({"system", "players", "variant", "seed", "position", "tournament", "rules_version", "catalogue"})
# Every number of a setup is bounded by what the rules allow (docs/rulings.md, "Setup numbers"): a player can
# destroy at most the 36 cards of the enemy army, and at most its 6 commanders (§2: the general and 5 command).
MAX_KILL_TARGET = ARMY_SIZE
MAX_COMMAND_TARGET = sum(n for rank, n in RANK_COUNTS.items() if rank in COMMANDER_RANKS)
MAX_SEED = 2**63 - 1  # R2: a signed 64-bit integer, as JSON readers and the database hold it exactly


def army_cards(army: Any, table: CardTable) -> tuple[tuple[str, ...], str]:
    """An army's name in the game's catalogue (``table``: the default's armies are the six factions' core decks) or
    an explicit list of the catalogue's card ids -> (36 card ids, army name). Raises SetupError (§9)."""
    cards, decks = table.cards, table.armies
    what = "a faction" if table.id == DEFAULT_ID else "an army of the catalogue"
    if isinstance(army, str):
        if army not in decks:
            raise SetupError(
                "unknown_army", "§9",
                f"unknown army {army!r}: {what} ({', '.join(decks)}) or a list of card ids",
            )
        return decks[army], army
    if not isinstance(army, (list, tuple)) or not all(isinstance(c, str) for c in army):
        raise SetupError("invalid_army", "§9", f"an army is {what}'s name or a list of card ids")
    unknown = sorted({c for c in army if c not in cards})
    if unknown:
        raise SetupError("unknown_card", "§9", f"unknown card id(s) in army: {', '.join(unknown)}")
    if len(army) != ARMY_SIZE:
        raise SetupError("invalid_army", "§9", f"an army has {ARMY_SIZE} cards, this one has {len(army)}")
    ranks = Counter(cards[c].rank for c in army)
    wrong = [
        f"{rank}: {ranks.get(rank, 0)} instead of {n}" for rank, n in RANK_COUNTS.items() if ranks.get(rank, 0) != n
    ]
    if ranks["general"] != 1:
        generals = [cards[c].name for c in army if cards[c].rank == "general"]
        other_ranks = "; ".join(w for w in wrong if not w.startswith("general"))
        raise SetupError(
            "invalid_army",
            "§9",
            f"an army has exactly one general, this one has {len(generals)}"
            + (f" ({', '.join(generals)})" if generals else "")
            + (f"; rank counts wrong: {other_ranks}" if len(wrong) > 1 else ""),
        )
    if wrong:
        raise SetupError("invalid_army", "§9", f"wrong rank counts (§2): {'; '.join(wrong)}")
    factions = sorted({cards[c].faction for c in army})
    for faction, deck in decks.items():
        if sorted(deck) == sorted(army):
            return tuple(army), faction
    return tuple(army), (f"custom:{factions[0]}" if len(factions) == 1 else "mercenary")


def parse_variant(raw: Any, seats: int = 2) -> Variant:
    """The variant of a setup for ``seats`` players (§7, §9, §10). ``teams`` is checked against the number of
    players and not recorded: the number of seats in ``game_started`` says which game it is (docs)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise SetupError("invalid_variant", "§9", "variant must be an object")
    raw = dict(raw)
    teams = raw.pop("teams", False)
    if not isinstance(teams, bool):
        raise SetupError("invalid_variant", "§10", f"teams must be true or false, not {teams!r}")
    if seats == 2 and teams:
        raise SetupError("invalid_variant", "§10",
                         "the team rules are for 4 or 6 players, in two teams; this game has 2")
    if seats in (4, 6) and not teams:
        raise SetupError("invalid_variant", "§10",
                         f"{seats} players play the team rules (§10): set \"variant\": {{\"teams\": true}}")
    if seats > 2:
        if seats in (4, 6):
            if raw.get("unbounded", True) is not True:
                raise SetupError("invalid_variant", "§10", "team games have no mat: the unbounded geometry (§10)")
            raw["unbounded"] = True
        kills, commanders = VICTORY[seats]
        raw.setdefault("kill_target", kills)
        raw.setdefault("command_target", commanders)
    extra = sorted(set(raw) - VARIANT_KEYS)
    if extra:
        raise SetupError(
            "invalid_variant", "§9",
            f"unsupported variant option(s): {', '.join(extra)} (known: {', '.join(sorted(VARIANT_KEYS))})",
        )
    try:
        variant = msgspec.convert(raw, Variant)
    except msgspec.ValidationError as exc:
        raise SetupError("invalid_variant", "§9", f"invalid variant: {exc}") from None
    enemies = enemy_armies(seats)
    max_kills, max_commanders = MAX_KILL_TARGET * enemies, MAX_COMMAND_TARGET * enemies
    armies = "an army has" if enemies == 1 else f"the {enemies} enemy armies have"
    if not 1 <= variant.kill_target <= max_kills:
        raise SetupError(
            "invalid_variant", "§7",
            f"kill_target must be 1 to {max_kills} ({armies} {max_kills} cards), not {variant.kill_target}",
        )
    if not 1 <= variant.command_target <= max_commanders:
        raise SetupError(
            "invalid_variant", "§7",
            f"command_target must be 1 to {max_commanders} ({armies} {max_commanders} commanders), "
            f"not {variant.command_target}",
        )
    return variant


def enemy_armies(seats: int) -> int:
    """How many armies a side faces (§10: a team of two or three; the three-player team shares one army)."""
    return seats // 2 if seats in (4, 6) else 1


def _position(raw: Any, variant: Variant, armies: list[tuple[str, ...]], layout: Layout,
              table: CardTable) -> PositionRecord:
    from engine.lords_of_war.rules import melee_damage  # local: rules imports this module's constants

    if not isinstance(raw, dict):
        raise SetupError("invalid_position", "position", "position must be an object {board, to_move, kills?}")
    extra = sorted(set(raw) - {"board", "to_move", "kills"})
    if extra:
        raise SetupError("invalid_position", "position", f"unknown position field(s): {', '.join(extra)}")
    seats = SEAT_NAMES[: layout.seats]
    to_move = raw.get("to_move")
    if to_move not in seats:
        raise SetupError("invalid_position", "position", f"to_move must be one of {', '.join(seats)}, not {to_move!r}")
    units: list[UnitRecord] = []
    seen: dict[int, str] = {}
    stocks = len(set(layout.stock))
    used: list[Counter[str]] = [Counter() for _ in range(stocks)]
    for i, entry in enumerate(raw.get("board") or ()):
        if not isinstance(entry, dict) or set(entry) != {"square", "card", "owner"}:
            raise SetupError("invalid_position", "position", f"board entry {i} must be {{square, card, owner}}")
        square, card, owner = entry["square"], entry["card"], entry["owner"]
        k = geo.parse(square, variant.unbounded)
        if k is None:
            raise SetupError("invalid_position", "§1", f"board entry {i}: {square!r} is not a square")
        if not variant.unbounded and not geo.on_mat(k):
            raise SetupError("invalid_position", "§1", f"board entry {i}: {square} is off the 7x6 mat")
        if k in seen:
            raise SetupError("invalid_position", "§1", f"two units on {square}")
        if owner not in seats:
            raise SetupError("invalid_position", "position",
                             f"board entry {i}: owner must be one of {', '.join(seats)}")
        seat = seats.index(owner)
        p = layout.stock[seat]
        if card not in table.cards:
            raise SetupError("unknown_card", "position", f"board entry {i}: unknown card {card!r}")
        used[p][card] += 1
        if used[p][card] > armies[seat].count(card):
            raise SetupError(
                "not_in_army", "position",
                f"{owner}'s army has {armies[seat].count(card)} {card}, the position uses more"
            )
        seen[k] = square
        units.append(UnitRecord(square=geo.name(k, variant.unbounded), card=card, owner=owner))
    for p in range(stocks):
        holders = [s for s in range(layout.seats) if layout.stock[s] == p]
        if ARMY_SIZE - sum(used[p].values()) < sum(layout.hand_size[s] for s in holders):
            raise SetupError("invalid_position", "position",
                             f"{'+'.join(seats[s] for s in holders)}: too few cards left to hold a hand")
    board = {geo.key_of(u.square, variant.unbounded): (u.card, layout.side[seats.index(u.owner)]) for u in units}
    for k, (card, _) in board.items():  # R6 needs a position no full elimination would change
        damage = melee_damage(board, k, table)
        if damage > table.cards[card].defence:
            raise SetupError(
                "invalid_position",
                "§5.2",
                f"{table.cards[card].name} at {geo.name(k, variant.unbounded)} takes {damage} > defence "
                f"{table.cards[card].defence}: it would already have been destroyed",
            )
    kills_raw = raw.get("kills") or {}
    kills: dict[str, KillsRecord] = {}
    sides = [layout.side_name(side) for side in (0, 1)]  # §10: a team's kills are counted together
    if not isinstance(kills_raw, dict):
        raise SetupError("invalid_position", "position", f"kills must be {{{sides[0]}: {{total, commanders}}, ...}}")
    for player, k in kills_raw.items():
        if player not in sides:
            raise SetupError("invalid_position", "position",
                             f"kills: unknown {'team' if layout.teams else 'player'} {player!r} ({' or '.join(sides)})")
        try:
            kills[player] = msgspec.convert(k, KillsRecord)
        except msgspec.ValidationError as exc:
            raise SetupError("invalid_position", "position", f"kills for {player}: {exc}") from None
        total, commanders = kills[player].total, kills[player].commanders
        if total < 0 or commanders < 0 or commanders > total:
            raise SetupError("invalid_position", "position", f"kills for {player}: impossible counts")
        if total >= variant.kill_target or commanders >= variant.command_target:  # §7: the game would be over
            raise SetupError(
                "invalid_position", "§7",
                f"kills for {player}: {total} cards and {commanders} commanders; a position starts a game still "
                f"running, so below the targets ({variant.kill_target} cards, {variant.command_target} commanders)",
            )
    units.sort(key=lambda u: geo.board_order(geo.key_of(u.square, variant.unbounded)))
    return PositionRecord(board=tuple(units), to_move=to_move, kills=kills)


def start(setup: dict[str, Any]) -> tuple[Any, ...]:
    """Validate a setup (POST /games body minus tokens) -> (game_started, hand_dealt per seat).

    2 players (§3), 3 players (§10: p1 alone against p2 and p3, who share one army) or 4 or 6 players with
    ``variant.teams`` (§10: odd seats against even seats)."""
    from engine.lords_of_war.state import evolve, initial_state

    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "§3", "setup must be an object")
    extra = sorted(set(setup) - SETUP_KEYS)
    if extra:
        raise SetupError("invalid_setup", "§3", f"unknown setup field(s): {', '.join(extra)}")
    system = setup.get("system", SYSTEM_NAME)
    if system != SYSTEM_NAME:
        raise SetupError("invalid_setup", "§3", f"this is the {SYSTEM_NAME} system, not {system!r}")
    players = setup.get("players")
    if not isinstance(players, list) or len(players) not in SEAT_COUNTS:
        count = len(players) if isinstance(players, list) else "no list of"
        raise SetupError(
            "invalid_setup", "§10",
            f"Lords of War is played by 2 players (§3), 3 (§10, one against a team of two) or 4 or 6 in two teams "
            f"(§10, variant teams); not {count} players",
        )
    layout = layout_of(len(players))
    catalogue = game_catalogue(setup, CATALOGUES)  # issue 30: None (the default) or the checked document
    table = DEFAULT_TABLE if catalogue.document is None else table_for(catalogue.document)
    variant = parse_variant(setup.get("variant"), layout.seats)
    records: list[ArmyRecord] = []
    seat_list = ", ".join(SEAT_NAMES[: layout.seats])
    for i, player in enumerate(players):
        expected = SEAT_NAMES[i]
        if not isinstance(player, dict):
            raise SetupError("invalid_setup", "§3", f"player {expected} must be an object {{id, name, army}}")
        if player.get("id", expected) != expected:
            raise SetupError("invalid_setup", "§3",
                             f"players are {seat_list} in seating order; got {player.get('id')!r}")
        shared = layout.stock[i] != i  # §10 three players: p3 plays the army p2 holds with them
        if "army" not in player and not shared:
            raise SetupError("invalid_army", "§3", f"player {expected} has no army")
        if shared:
            partner = records[layout.stock[i]]
            if "army" in player and army_cards_or_none(player["army"], table) != partner.cards:
                raise SetupError("invalid_army", "§10",
                                 f"{expected} and {partner.id} are the team and share one army (§10 three players): "
                                 f"{expected}'s army must be {partner.id}'s or left out")
            cards, army_name = partner.cards, partner.army_name
        else:
            try:
                cards, army_name = army_cards(player["army"], table)
            except SetupError as exc:
                raise SetupError(exc.code, exc.rule, f"{expected}: {exc.message}") from None
        name = str(player.get("name", expected))
        records.append(ArmyRecord(id=expected, name=name, army_name=army_name, cards=cards))
    seed = setup.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise SetupError("invalid_setup", "R2", "seed must be an integer")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise SetupError("invalid_setup", "R2", f"seed must be 0 to 2^63-1 ({MAX_SEED}), not {seed}")
    if variant.mode == "sealed" and seed is None:
        seed = 0  # R2: the engine never invents randomness; callers should pass a seed
    position = None
    if setup.get("position") is not None:
        position = _position(setup["position"], variant, [r.cards for r in records], layout, table)
    started = GameStarted(
        system=SYSTEM_NAME,
        rules_version=RULES_VERSION,
        players=tuple(records),
        variant=variant,
        seed=seed,
        shuffle=SHUFFLE_NAME if variant.mode == "sealed" else None,
        position=position,
    )
    if catalogue.document is not None:  # recorded only when not the default: a default game_started is unchanged
        started = msgspec.structs.replace(started, catalogue=catalogue.document, catalogue_id=catalogue.id)
    state = evolve(initial_state(), started)
    dealt: list[HandDealt] = []
    top = [0] * len(state.decks)  # per army: the cards dealt so far from its deck
    for p, record in enumerate(records):
        size = layout.hand_size[p]
        if variant.mode == "table":
            dealt.append(HandDealt(player=record.id, cards=None, count=size))
            continue
        stock = layout.stock[p]
        generals: list[str] = []
        if not layout.shared_general or layout.side[p] == 0:  # R15: the team's general lies between them instead
            on_board = Counter(u.card for u in (position.board if position else ()) if u.owner == record.id)
            generals = [c for c in record.cards if table.cards[c].rank == "general" and on_board[c] == 0]
        drawn = state.decks[stock][top[stock] : top[stock] + size - len(generals)]
        top[stock] += len(drawn)
        hand = tuple(generals) + drawn
        dealt.append(HandDealt(player=record.id, cards=hand, count=len(hand)))
    return (started, *dealt)


def army_cards_or_none(army: Any, table: CardTable) -> tuple[str, ...] | None:
    try:
        return army_cards(army, table)[0]
    except SetupError:
        return None


def army_setup(cards: Sequence[str], army_name: str, table: CardTable) -> str | list[str]:
    """An army's name when the cards are that army of the game's catalogue (``table``) in its order, else the
    explicit list (order matters: the sealed shuffle starts from it)."""
    if tuple(cards) == table.armies.get(army_name):
        return army_name
    return list(cards)


def setup_from_started(started: GameStarted) -> dict[str, Any]:
    """The setup (POST /games body) that ``start`` turns into this ``game_started`` (its catalogue, the document,
    as the engine's ``start`` takes it)."""
    from engine.lords_of_war.state import started_cards

    table = started_cards(started) or DEFAULT_TABLE
    setup: dict[str, Any] = {
        "system": started.system,
        "players": [{"id": p.id, "name": p.name, "army": army_setup(p.cards, p.army_name, table)}
                    for p in started.players],
        "variant": msgspec.to_builtins(started.variant),
        "seed": started.seed,
    }
    if len(started.players) in (4, 6):
        setup["variant"]["teams"] = True  # §10: recorded by the number of seats
    if started.position is not None:
        setup["position"] = msgspec.json.decode(msgspec.json.encode(started.position))
    if started.catalogue:
        setup["catalogue"] = started.catalogue
    return setup
