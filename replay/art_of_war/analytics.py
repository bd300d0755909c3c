"""Art of War's statistics (docs/art-of-war.md, "Statistics"): labels for the core (each seat's deck), its own
projection tables (``aow_seats``: a row per seat of a finished game with its final kingdom by type;
``aow_removals``: a row per unit taken off the battlefield by damage) and two statistics of its own
(how games end and the first player's results are the core ``end-reasons`` and ``first-player``):

- ``aow-kingdoms``: the kingdom composition of winners against losers;
- ``aow-removals``: captures against destructions by unit type.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.art_of_war.catalogue import BASIC_TYPES, DECKS, cards_of, kind_of
from engine.art_of_war.setup import SYSTEM_NAME
from engine.art_of_war.state import fold
from events.art_of_war import Damaged, GameStarted
from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent, clear_facts, store_facts
from replay.analytics.stats import Filters, sample_games
from replay.store.sql import SqlFolder

sql = SqlFolder(Path(__file__).parent / "sql", SYSTEM_NAME)
exports = ("aow_seats", "aow_removals")
army_names = tuple(DECKS)


def labels(started: GameStarted) -> GameLabels:
    return GameLabels(armies={d.player: d.name for d in started.decks}, variant=started.variant.mode,
                      rules_version=started.rules_version, mode=started.variant.mode)


class SeatRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    deck: str
    king: str
    went_first: bool
    result: str | None
    end_reason: str | None
    soldiers: int
    archers: int
    priests: int
    guardians: int
    wizards: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class RemovalRow(msgspec.Struct, kw_only=True):
    game_id: str
    seq: int
    seat: str
    unit_type: str
    result: str
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class Rows(msgspec.Struct):
    seats: list[SeatRow]
    removals: list[RemovalRow]


def project(game: GameFacts, stream: Sequence[StreamEvent]) -> Rows:
    common = {k: v for k, v in game.filter_columns().items() if k != "finished"}
    gid = game.header.game_id
    rows = Rows([], [])
    events = [item.event for item in stream]
    final = fold(events)
    for item in stream:
        event = item.event
        if isinstance(event, GameStarted):
            for deck in event.decks:
                facts = game.seat(deck.player)
                kingdom = final.player(deck.player).kingdom if final.players else ()
                counts = {t: sum(1 for c in kingdom if kind_of(c) == t) for t in BASIC_TYPES}
                rows.seats.append(SeatRow(
                    game_id=gid, seat=deck.player, deck=deck.name, king=deck.king, went_first=deck.player ==
                    event.first, result=facts.result if facts else None, end_reason=game.end_reason,
                    soldiers=counts["soldier"], archers=counts["archer"], priests=counts["priest"],
                    guardians=counts["guardian"], wizards=counts["wizard"], **common))
        elif isinstance(event, Damaged) and event.result != "damaged":
            kind = "king" if cards_of(final).card(event.unit).king else kind_of(event.unit)  # the game's KINGs
            rows.removals.append(RemovalRow(game_id=gid, seq=item.seq, seat=event.by, unit_type=kind,
                                            result=event.result, **common))
    return rows


FACT_TABLES = (("seats", SeatRow), ("removals", RemovalRow))


def store(conn: Any, games: Sequence[tuple[GameFacts, Rows]], rewritten: Sequence[str]) -> None:
    store_facts(conn, sql, "aow", FACT_TABLES, games, rewritten)


def clear(conn: Any) -> None:
    clear_facts(conn, sql, "aow", FACT_TABLES)


class KingdomMix(msgspec.Struct, frozen=True):
    result: str  # win | loss
    seats: int
    soldiers: float
    archers: float
    priests: float
    guardians: float
    wizards: float


class Kingdoms(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[KingdomMix]


class RemovalCount(msgspec.Struct, frozen=True):
    unit_type: str
    captured: int
    destroyed: int
    capture_share: float


class Removals(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[RemovalCount]


def kingdoms(conn: Any, filters: Filters) -> Kingdoms:
    rows = conn.execute(sql("stats_aow_kingdoms"), filters.own()).fetchall()
    return Kingdoms(filters, sample_games(conn, filters),
                    [KingdomMix(r, n, float(s), float(a), float(p), float(g), float(w)) for r, n, s, a, p, g, w
                     in rows])


def removals(conn: Any, filters: Filters) -> Removals:
    rows = conn.execute(sql("stats_aow_removals"), filters.own()).fetchall()
    return Removals(filters, sample_games(conn, filters),
                    [RemovalCount(t, c, d, c / (c + d) if c + d else 0.0) for t, c, d in rows])


statistics = (
    Statistic(name="aow-kingdoms", path="/art-of-war/kingdoms", summary="Art of War: the kingdom composition of "
              "winners against losers", result=Kingdoms, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: kingdoms(conn, filters)),
    Statistic(name="aow-removals", path="/art-of-war/removals", summary="Art of War: captures against destructions "
              "by unit type", result=Removals, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: removals(conn, filters)),
)

__all__ = ["army_names", "clear", "exports", "labels", "project", "sql", "statistics", "store"]
