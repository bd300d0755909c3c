"""HeroScape's statistics (docs/heroscape.md, "Statistics"): labels for the core (each seat's army), its own
projection tables and four statistics of its own:

- ``hs-cards``: win rate by army card (``hs_cards``: a row per card a seat fielded);
- ``hs-height``: damage by height difference (``hs_attacks``: a row per resolved attack on a figure);
- ``hs-leaving``: how often leaving engagement costs a figure (``hs_leaving``: a row per move leaving engagement);
- ``hs-glyphs``: glyph control and victory (``hs_glyphs``: a row per permanent glyph a seat held at a round's end).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.heroscape.catalogue import DEFAULT, catalogue, tables_of
from engine.heroscape.setup import SYSTEM_NAME
from events.heroscape import (
    AttackDeclared,
    AttackResolved,
    FigureDestroyed,
    FigureWounded,
    GameStarted,
    MoveDeclared,
    RoundEnded,
)
from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent, clear_facts, store_facts
from replay.analytics.stats import Filters, catalogue_document, sample_games
from replay.store.sql import SqlFolder

sql = SqlFolder(Path(__file__).parent / "sql", SYSTEM_NAME)
exports = ("hs_cards", "hs_attacks", "hs_leaving", "hs_glyphs")
army_names = tuple(catalogue()[1])


def labels(started: GameStarted) -> GameLabels:
    v = started.variant
    return GameLabels(armies={a.player: a.name for a in started.armies}, variant=f"{v.map}+{v.game}",
                      rules_version=started.rules_version, mode=v.mode)


class Common(msgspec.Struct, kw_only=True):
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class CardRow(Common, kw_only=True):
    game_id: str
    seat: str
    card: str
    survived: bool
    result: str | None


class AttackRow(Common, kw_only=True):
    game_id: str
    seq: int
    seat: str
    height_diff: int
    special: bool
    wounds: int
    destroyed: bool


class LeavingRow(Common, kw_only=True):
    game_id: str
    seq: int
    seat: str
    strikers: int
    wounds: int
    destroyed: bool


class GlyphRow(Common, kw_only=True):
    game_id: str
    seat: str
    glyph: str
    rounds: int
    result: str | None


class Rows(msgspec.Struct):
    cards: list[CardRow]
    attacks: list[AttackRow]
    leaving: list[LeavingRow]
    glyphs: list[GlyphRow]


def project(game: GameFacts, stream: Sequence[StreamEvent]) -> Rows:
    common = {k: v for k, v in game.filter_columns().items() if k != "finished"}
    gid = game.header.game_id
    rows = Rows([], [], [], [])
    destroyed: set[tuple[str, str]] = set()
    held: dict[tuple[str, str], int] = {}
    declared: AttackDeclared | None = None
    leaving: LeavingRow | None = None
    started: GameStarted | None = None
    for item in stream:
        event = item.event
        if isinstance(event, GameStarted):
            started = event
        elif isinstance(event, AttackDeclared):
            declared = event
        elif isinstance(event, AttackResolved) and declared is not None:
            target = next(t for t in declared.targets if t.figure == event.target and t.player == event.defender)
            rows.attacks.append(AttackRow(game_id=gid, seq=item.seq, seat=declared.player,
                                          height_diff=declared.level - target.level,
                                          special=declared.special is not None, wounds=event.wounds,
                                          destroyed=event.destroyed, **common))
        elif isinstance(event, MoveDeclared):
            leaving = None
            if event.strikers:
                leaving = LeavingRow(game_id=gid, seq=item.seq, seat=event.player, strikers=len(event.strikers),
                                     wounds=0, destroyed=False, **common)
                rows.leaving.append(leaving)
        elif isinstance(event, FigureWounded) and event.cause == "leaving" and leaving is not None:
            leaving.wounds += event.wounds
        elif isinstance(event, FigureDestroyed):
            destroyed.add((event.player, event.figure))
            if event.cause == "leaving" and leaving is not None:
                leaving.destroyed = True
        elif isinstance(event, RoundEnded):
            for seat, glyphs in event.glyphs.items():
                for glyph in glyphs:
                    held[(seat, glyph)] = held.get((seat, glyph), 0) + 1
    if started is not None:
        for army in started.armies:
            facts = game.seat(army.player)
            result = facts.result if facts else None
            for card in army.cards:
                ids = [card.key] if card.figures == 1 else [f"{card.key}/{n}" for n in range(1, card.figures + 1)]
                survived = any((army.player, i) not in destroyed for i in ids)
                rows.cards.append(CardRow(game_id=gid, seat=army.player, card=card.key, survived=survived,
                                          result=result, **common))
        for (seat, glyph), rounds in sorted(held.items()):
            facts = game.seat(seat)
            rows.glyphs.append(GlyphRow(game_id=gid, seat=seat, glyph=glyph, rounds=rounds,
                                        result=facts.result if facts else None, **common))
    return rows


FACT_TABLES = (("cards", CardRow), ("attacks", AttackRow), ("leaving", LeavingRow), ("glyphs", GlyphRow))


def store(conn: Any, games: Sequence[tuple[GameFacts, Rows]], rewritten: Sequence[str]) -> None:
    store_facts(conn, sql, "hs", FACT_TABLES, games, rewritten)


def clear(conn: Any) -> None:
    clear_facts(conn, sql, "hs", FACT_TABLES)


class CardRate(msgspec.Struct, frozen=True):
    card: str
    seats: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    name: str = ""  # the card's name in the catalogue the statistic is filtered by (else the default's; its id)


class Cards(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[CardRate]


class HeightRow(msgspec.Struct, frozen=True):
    height_diff: int
    attacks: int
    wounds: int
    mean_wounds: float
    destroyed: int
    destroyed_share: float


class Height(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[HeightRow]


class LeavingCount(msgspec.Struct, frozen=True):
    strikers: int
    moves: int
    wounded: int
    destroyed: int
    destroyed_share: float


class Leaving(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[LeavingCount]


class GlyphControl(msgspec.Struct, frozen=True):
    glyph: str
    seats: int
    mean_rounds: float
    wins: int
    losses: int
    win_rate: float


class Glyphs(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[GlyphControl]


def cards(conn: Any, filters: Filters) -> Cards:
    """Win rate by army card, each card named as the catalogue filtered by names it (issue 30)."""
    rows = conn.execute(sql("stats_hs_cards"), filters.own()).fetchall()
    document = catalogue_document(conn, filters)
    named = (tables_of(document) if document is not None else DEFAULT).cards
    return Cards(filters, sample_games(conn, filters),
                 [CardRate(c, n, w, d, lo, w / n if n else 0.0, named[c].name if c in named else c)
                  for c, n, w, d, lo in rows])


def height(conn: Any, filters: Filters) -> Height:
    rows = conn.execute(sql("stats_hs_height"), filters.own()).fetchall()
    return Height(filters, sample_games(conn, filters),
                  [HeightRow(h, n, int(w or 0), (w or 0) / n if n else 0.0, d, d / n if n else 0.0)
                   for h, n, w, d in rows])


def leaving_engagement(conn: Any, filters: Filters) -> Leaving:
    rows = conn.execute(sql("stats_hs_leaving"), filters.own()).fetchall()
    return Leaving(filters, sample_games(conn, filters),
                   [LeavingCount(s, n, w, d, d / n if n else 0.0) for s, n, w, d in rows])


def glyphs(conn: Any, filters: Filters) -> Glyphs:
    rows = conn.execute(sql("stats_hs_glyphs"), filters.own()).fetchall()
    return Glyphs(filters, sample_games(conn, filters),
                  [GlyphControl(g, n, float(m), w, lo, w / n if n else 0.0) for g, n, m, w, lo in rows])


statistics = (
    Statistic(name="hs-cards", path="/heroscape/cards", summary="HeroScape: win rate by army card", result=Cards,
              system=SYSTEM_NAME, by_catalogue=True, compute=lambda conn, filters, params, cache: cards(conn, filters)),
    Statistic(name="hs-height", path="/heroscape/height", summary="HeroScape: damage by height difference",
              result=Height, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: height(conn, filters)),
    Statistic(name="hs-leaving", path="/heroscape/leaving", summary="HeroScape: how often leaving engagement costs "
              "a figure", result=Leaving, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: leaving_engagement(conn, filters)),
    Statistic(name="hs-glyphs", path="/heroscape/glyphs", summary="HeroScape: glyph control and victory",
              result=Glyphs, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: glyphs(conn, filters)),
)

__all__ = ["army_names", "clear", "exports", "labels", "project", "sql", "statistics", "store"]
