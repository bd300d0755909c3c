"""Light Wars' statistics (docs/light-wars.md, "Statistics"): labels for the core (each seat's army), its own
projection tables (``lw_seats``: a row per seat of a finished game; ``lw_attacks``: a row per resolved attack) and
two statistics of its own
(how games end and the first player's results are the core ``end-reasons`` and ``first-player``):

- ``lw-armies``: win rate by army composition and total cost;
- ``lw-flanks``: the value of attacking from the rear (and the side): attacks by the best side they strike from.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.light_wars.catalogue import ARMIES, UNIT_TYPES
from engine.light_wars.setup import SYSTEM_NAME
from events.light_wars import ArmyRecord, AttackDeclared, AttackResolved, GameStarted
from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent, clear_facts, store_facts
from replay.analytics.stats import Filters, sample_games
from replay.store.sql import SqlFolder

sql = SqlFolder(Path(__file__).parent / "sql", SYSTEM_NAME)
exports = ("lw_seats", "lw_attacks")
army_names = tuple(ARMIES)
SIDE_ORDER = {"front": 0, "side": 1, "rear": 2}


def composition(army: ArmyRecord) -> str:
    """The army's unit types with counts in the catalogue's order, then its tiles: "king infantry*2 +battle-cry"."""
    counts: dict[str, int] = {}
    for unit in army.units:
        counts[unit.type] = counts.get(unit.type, 0) + 1
    known = {t: i for i, t in enumerate(UNIT_TYPES)}  # another catalogue's types follow, in the army's order
    words = [t + (f"*{counts[t]}" if counts[t] > 1 else "") for t in sorted(counts, key=lambda t: known.get(t, 99))]
    return " ".join(words + [f"+{t}" for t in army.tactics])


def variant_label(started: GameStarted) -> str:
    v = started.variant
    size = f"custom-{v.total_cost}-{v.max_turns}" if v.size == "custom" else v.size
    return f"{size}+{v.deployment}"


def labels(started: GameStarted) -> GameLabels:
    return GameLabels(armies={a.player: a.name for a in started.armies}, variant=variant_label(started),
                      rules_version=started.rules_version, mode=started.variant.mode)


class SeatRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    army: str
    composition: str
    cost: int
    went_first: bool
    result: str | None
    end_reason: str | None
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class AttackRow(msgspec.Struct, kw_only=True):
    game_id: str
    attack: int
    seq: int
    seat: str
    participants: int
    side: str
    shooting: bool
    won: bool
    margin: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class Rows(msgspec.Struct):
    seats: list[SeatRow]
    attacks: list[AttackRow]


def project(game: GameFacts, stream: Sequence[StreamEvent]) -> Rows:
    common = {k: v for k, v in game.filter_columns().items() if k != "finished"}
    seats: list[SeatRow] = []
    attacks: list[AttackRow] = []
    declared: AttackDeclared | None = None
    for item in stream:
        event = item.event
        if isinstance(event, GameStarted):
            for army in event.armies:
                facts = game.seat(army.player)
                seats.append(SeatRow(game_id=game.header.game_id, seat=army.player, army=army.name,
                                     composition=composition(army), cost=army.cost,
                                     went_first=bool(facts and facts.went_first),
                                     result=facts.result if facts else None, end_reason=game.end_reason, **common))
        elif isinstance(event, AttackDeclared):
            declared = event
        elif isinstance(event, AttackResolved) and declared is not None and declared.attack == event.attack:
            side = max((p.side for p in declared.participants), key=SIDE_ORDER.__getitem__)
            attacks.append(AttackRow(
                game_id=game.header.game_id, attack=event.attack, seq=item.seq, seat=declared.player,
                participants=len(declared.participants), side=side,
                shooting=any(p.shooting for p in declared.participants), won=event.winner == "attack",
                margin=event.attack_total - event.defence_total, **common))
    return Rows(seats, attacks)


FACT_TABLES = (("seats", SeatRow), ("attacks", AttackRow))


def store(conn: Any, games: Sequence[tuple[GameFacts, Rows]], rewritten: Sequence[str]) -> None:
    store_facts(conn, sql, "lw", FACT_TABLES, games, rewritten)


def clear(conn: Any) -> None:
    clear_facts(conn, sql, "lw", FACT_TABLES)


# -- the statistics ---------------------------------------------------------------------------------------------


class ArmyResult(msgspec.Struct, frozen=True):
    composition: str
    cost: int
    seats: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # wins / seats


class Armies(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[ArmyResult]


class FlankResult(msgspec.Struct, frozen=True):
    side: str  # front | side | rear: the best side a participant strikes from
    attacks: int
    won: int
    win_rate: float
    mean_margin: float  # attacking total minus defending total, on average


class Flanks(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[FlankResult]


def armies(conn: Any, filters: Filters) -> Armies:
    rows = conn.execute(sql("stats_lw_armies"), filters.own_army_params()).fetchall()
    return Armies(filters, sample_games(conn, filters),
                  [ArmyResult(c, cost, n, w, d, lost, w / n if n else 0.0) for c, cost, n, w, d, lost in rows])


def flanks(conn: Any, filters: Filters) -> Flanks:
    rows = conn.execute(sql("stats_lw_flanks"), filters.own()).fetchall()
    return Flanks(filters, sample_games(conn, filters),
                  [FlankResult(side, n, won, won / n if n else 0.0, margin / n if n else 0.0)
                   for side, n, won, margin in rows])


statistics = (
    Statistic(name="lw-armies", path="/light-wars/armies", summary="Light Wars: win rate by army composition and "
              "total cost", result=Armies, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: armies(conn, filters)),
    Statistic(name="lw-flanks", path="/light-wars/flanks", summary="Light Wars: attacks from the front, side and "
              "rear, and how often they win", result=Flanks, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: flanks(conn, filters)),
)

__all__ = ["army_names", "clear", "exports", "labels", "project", "sql", "statistics", "store"]
