"""L5R's statistics (docs/l5r.md, "Statistics"): labels for the core (each seat's clan, so the shared statistics are
by clan), its own projection tables (``l5r_seats``, ``l5r_duels``, ``l5r_battles``, ``l5r_honor``) and six
statistics of its own:

- ``l5r-duels-difference``: duel results by the duellists' stat difference (chi unless a card said otherwise);
- ``l5r-duels-focuses``: duel results by the number of focus cards laid;
- ``l5r-challenger``: the challenger's advantage, by clan and overall;
- ``l5r-battles``: battle outcomes by force difference, with the provinces that fell (battlefields where no army
  stood are not counted: nothing can happen there);
- ``l5r-honor``: honour curves, each clan's mean family honour turn by turn;
- ``l5r-victories``: victory types by clan.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.l5r.catalogue import CARDS, owner_of
from engine.l5r.setup import SYSTEM_NAME
from events.l5r import (
    ArmyAssigned,
    AttackDeclared,
    BattleResolved,
    DuelChallenged,
    DuelResolved,
    GameStarted,
    HonorChanged,
    TurnEnded,
)
from replay.analytics.model import GameFacts, GameLabels, Statistic, StreamEvent, clear_facts, store_facts
from replay.analytics.stats import Filters, sample_games
from replay.store.sql import SqlFolder

sql = SqlFolder(Path(__file__).parent / "sql", SYSTEM_NAME)
exports = ("l5r_seats", "l5r_duels", "l5r_battles", "l5r_honor")
army_names = tuple(sorted({c.clan or "" for c in CARDS.values() if c.kind == "stronghold"}))
def labels(started: GameStarted) -> GameLabels:
    return GameLabels(armies={d.player: d.clan for d in started.decks}, variant=started.variant.mode,
                      rules_version=started.rules_version, mode=started.variant.mode)


class SeatRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    deck: str
    clan: str
    stronghold: str
    went_first: bool
    result: str | None
    end_reason: str | None
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class DuelRow(msgspec.Struct, kw_only=True):
    game_id: str
    seq: int
    challenger: str
    clan: str
    stat: str
    difference: int
    focuses: int
    outcome: str
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class BattleRow(msgspec.Struct, kw_only=True):
    game_id: str
    seq: int
    attacker: str
    difference: int
    winner: str
    province_destroyed: bool
    destroyed: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class HonorRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    clan: str
    turn: int
    honor: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str


class Rows(msgspec.Struct):
    seats: list[SeatRow]
    duels: list[DuelRow]
    battles: list[BattleRow]
    honor: list[HonorRow]


def project(game: GameFacts, stream: Sequence[StreamEvent]) -> Rows:
    common = {k: v for k, v in game.filter_columns().items() if k != "finished"}
    gid = game.header.game_id
    rows = Rows([], [], [], [])
    clans: dict[str, str] = {}
    honor: dict[str, int] = {}
    challenge: DuelChallenged | None = None
    fought: set[int] = set()  # battlefields of the attack under way where an army stands
    turns = 0
    for item in stream:
        event = item.event
        if isinstance(event, GameStarted):
            for deck in event.decks:
                facts = game.seat(deck.player)
                clans[deck.player] = deck.clan
                honor[deck.player] = deck.honor
                rows.seats.append(SeatRow(game_id=gid, seat=deck.player, deck=deck.name, clan=deck.clan,
                                          stronghold=deck.stronghold, went_first=deck.player == event.order[0],
                                          result=facts.result if facts else None, end_reason=game.end_reason,
                                          **common))
            if event.position is not None:
                honor.update({p.player: p.honor for p in event.position.players})
            rows.honor += [HonorRow(game_id=gid, seat=s, clan=clans[s], turn=0, honor=h, **common)
                           for s, h in honor.items()]
        elif isinstance(event, HonorChanged):
            honor[event.player] = event.total
        elif isinstance(event, TurnEnded):
            turns += 1
            rows.honor += [HonorRow(game_id=gid, seat=s, clan=clans[s], turn=turns, honor=h, **common)
                           for s, h in honor.items()]
        elif isinstance(event, DuelChallenged):
            challenge = event
        elif isinstance(event, DuelResolved) and challenge is not None:
            outcome = "tie" if event.winner is None else "challenger" if event.winner == event.challenger \
                else "challenged"
            rows.duels.append(DuelRow(game_id=gid, seq=item.seq, challenger=challenge.player,
                                      clan=clans.get(owner_of(event.challenger), ""), stat=challenge.stat,
                                      difference=event.base[0] - event.base[1], focuses=len(event.revealed),
                                      outcome=outcome, **common))
            challenge = None
        elif isinstance(event, AttackDeclared):
            fought = set()
        elif isinstance(event, ArmyAssigned):
            fought.add(event.battlefield)
        elif isinstance(event, BattleResolved) and event.battlefield in fought:  # a battlefield without armies
            rows.battles.append(BattleRow(game_id=gid, seq=item.seq, attacker=event.attacker,
                                          difference=event.attacker_force - event.defender_force,
                                          winner=event.winner or "none", province_destroyed=event.province_destroyed,
                                          destroyed=len(event.destroyed), **common))
    return rows


FACT_TABLES = (("seats", SeatRow), ("duels", DuelRow), ("battles", BattleRow), ("honor", HonorRow))


def store(conn: Any, games: Sequence[tuple[GameFacts, Rows]], rewritten: Sequence[str]) -> None:
    store_facts(conn, sql, "l5r", FACT_TABLES, games, rewritten)


def clear(conn: Any) -> None:
    clear_facts(conn, sql, "l5r", FACT_TABLES)


# -- the statistics ---------------------------------------------------------------------------------------------


class DuelOutcomes(msgspec.Struct, frozen=True):
    key: int | str | None  # the stat difference, the number of focuses, or the clan (None: every duel)
    duels: int
    challenger_wins: int
    ties: int  # equal totals: both lose (§5.3)
    challenged_wins: int
    challenger_win_rate: float


class Duels(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[DuelOutcomes]


class BattleOutcomes(msgspec.Struct, frozen=True):
    difference: int  # attacking force minus defending force (-10 and 10 take everything beyond)
    battles: int
    attacker_wins: int
    defender_wins: int
    ties: int
    nothing: int  # a tie with one or no army
    provinces_destroyed: int
    attacker_win_rate: float


class Battles(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[BattleOutcomes]


class HonorPoint(msgspec.Struct, frozen=True):
    clan: str
    turn: int
    seats: int
    mean_honor: float


class HonorCurves(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[HonorPoint]


class VictoryType(msgspec.Struct, frozen=True):
    clan: str
    end_reason: str
    wins: int


class Victories(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[VictoryType]


def _duels(conn: Any, filters: Filters, statement: str) -> Duels:
    rows = conn.execute(sql(statement), filters.own()).fetchall()
    return Duels(filters, sample_games(conn, filters),
                 [DuelOutcomes(key, n, a, t, d, a / n if n else 0.0) for key, n, a, t, d in rows])


def battles(conn: Any, filters: Filters) -> Battles:
    rows = conn.execute(sql("stats_l5r_battles"), filters.own()).fetchall()
    return Battles(filters, sample_games(conn, filters),
                   [BattleOutcomes(diff, n, a, d, t, none, fell, a / n if n else 0.0)
                    for diff, n, a, d, t, none, fell in rows])


def honor_curves(conn: Any, filters: Filters) -> HonorCurves:
    rows = conn.execute(sql("stats_l5r_honor"), filters.own()).fetchall()
    return HonorCurves(filters, sample_games(conn, filters),
                       [HonorPoint(clan, turn, n, float(mean)) for clan, turn, n, mean in rows])


def victories(conn: Any, filters: Filters) -> Victories:
    rows = conn.execute(sql("stats_l5r_victories"), filters.own()).fetchall()
    return Victories(filters, sample_games(conn, filters), [VictoryType(c, r or "", n) for c, r, n in rows])


statistics = (
    Statistic(name="l5r-duels-difference", path="/l5r/duels/difference", summary="L5R: duel results by the "
              "duellists' stat difference (chi unless a card said otherwise)", result=Duels,
              system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: _duels(conn, filters, "stats_l5r_duels_by_difference")),
    Statistic(name="l5r-duels-focuses", path="/l5r/duels/focuses", summary="L5R: duel results by the number of "
              "focus cards laid", result=Duels, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: _duels(conn, filters, "stats_l5r_duels_by_focuses")),
    Statistic(name="l5r-challenger", path="/l5r/duels/challenger", summary="L5R: the challenger's advantage, by "
              "clan and over every duel", result=Duels, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: _duels(conn, filters, "stats_l5r_challenger")),
    Statistic(name="l5r-battles", path="/l5r/battles", summary="L5R: battle outcomes by force difference",
              result=Battles, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: battles(conn, filters)),
    Statistic(name="l5r-honor", path="/l5r/honor", summary="L5R: honour curves, each clan's mean family honour "
              "turn by turn", result=HonorCurves, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: honor_curves(conn, filters)),
    Statistic(name="l5r-victories", path="/l5r/victories", summary="L5R: victory types by clan",
              result=Victories, system=SYSTEM_NAME, by_catalogue=True,
              compute=lambda conn, filters, params, cache: victories(conn, filters)),
)

__all__ = ["army_names", "clear", "exports", "labels", "project", "sql", "statistics", "store"]
