"""Tournaments: Swiss events of many rounds and tables, each table a game of the record.

A tournament is itself a small event log (``tournament_created``, ``player_registered``, ``round_started``,
``result_entered``) kept by a ``TournamentLog`` (in memory, or SQL tables next to the games: see
``replay/tournaments/store.py``); its state is a fold of that log. Results are not copied out of games: a table's
result is read from its game's final state when asked (or from a forfeit entered by the organiser), so standings
are always those of the record.

Standings: match points (win 3, draw 1, loss 0; a bye is a win), then opponents' match-win percentage (each
opponent's match points / 3 per round played, floored at 1/3, averaged; byes are not opponents), then card-kill
difference (cards destroyed minus cards lost over finished games), then player id.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from replay.log.service import GameService, name_problem
from replay.tournaments.swiss import swiss_pairing

FORMATS = ("swiss",)
SEATS = ("p1", "p2")


# -- errors -----------------------------------------------------------------------------------------------


class TournamentError(Exception):
    """Base of the errors of tournaments; ``code`` is stable."""

    code = "tournament_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class TournamentNotFound(TournamentError):
    code = "not_found"

    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"tournament {tournament_id!r} not found")
        self.tournament_id = tournament_id


class TournamentRefused(TournamentError):
    """The request does not fit the tournament's state (registration closed, round unfinished, ...)."""

    code = "refused"


class TournamentInvalid(TournamentError):
    """The request itself is wrong (unknown system, an army the system refuses, an unknown table)."""

    code = "invalid"


class TournamentConflict(TournamentError):
    """Someone else changed the tournament first; retry."""

    code = "conflict"


# -- a game's outcome, as the tournament (and the API's game summary) reads it ------------------------------


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: str | None  # a seat or "draw"
    end_reason: str | None
    kills: dict[str, int]  # cards each seat destroyed


def game_outcome(games: GameService, game_id: str) -> Outcome:
    """Read from the game's latest state (the contract's ``phase``/``winner``/``end_reason``/``kills``)."""
    _, state = games.state(game_id)
    data = games.system_of(game_id).state_to_builtins(state)
    kills = {}
    for seat, value in (data.get("kills") or {}).items():
        kills[str(seat)] = int(value.get("total", 0)) if isinstance(value, dict) else int(value or 0)
    over = data.get("phase") == "over" or data.get("winner") is not None
    return Outcome(over, data.get("winner"), data.get("end_reason"), kills)


# -- the log ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    type: str
    data: dict[str, Any]
    recorded_at: str


class TournamentLog(Protocol):
    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int) -> int:
        """Append all or nothing after ``expected_seq`` (0 creates the tournament); ``TournamentConflict`` if
        stale or taken. Returns the new last seq."""
        ...

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        """The whole log; ``TournamentNotFound`` if there is none."""
        ...

    def list_ids(self, limit: int = 100) -> list[str]:
        """Tournament ids, oldest first."""
        ...


# -- state ------------------------------------------------------------------------------------------------


@dataclass
class Entrant:
    id: str
    name: str
    army: Any


@dataclass
class Table:
    table: int
    p1: str
    p2: str
    game_id: str
    forfeit: dict[str, Any] | None = None  # {"winner": seat|"draw", "kills": {seat: n}}


@dataclass
class Round:
    number: int
    tables: list[Table]
    bye: str | None


@dataclass
class Tournament:
    id: str
    name: str
    system: str
    format: str
    rounds: int
    variant: dict[str, Any]
    organiser_hash: str
    created_at: str
    seq: int = 0
    entrants: dict[str, Entrant] = field(default_factory=dict)
    played: list[Round] = field(default_factory=list)


def fold(tournament_id: str, log: Sequence[LoggedEvent]) -> Tournament:
    tournament: Tournament | None = None
    for event in log:
        d = event.data
        if event.type == "tournament_created":
            tournament = Tournament(
                tournament_id, d["name"], d["system"], d["format"], d["rounds"], d.get("variant", {}),
                d["organiser_hash"], event.recorded_at,
            )
        elif tournament is None:
            raise TournamentNotFound(tournament_id)
        elif event.type == "player_registered":
            tournament.entrants[d["id"]] = Entrant(d["id"], d["name"], d["army"])
        elif event.type == "round_started":
            tables = [Table(t["table"], t["p1"], t["p2"], t["game_id"]) for t in d["tables"]]
            tournament.played.append(Round(d["round"], tables, d.get("bye")))
        elif event.type == "result_entered":
            table = tournament.played[d["round"] - 1].tables[d["table"] - 1]
            table.forfeit = {"winner": d["winner"], "kills": d.get("kills", {})}
        if tournament is not None:
            tournament.seq = event.seq
    if tournament is None:
        raise TournamentNotFound(tournament_id)
    return tournament


# -- results and standings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    p1: str
    p2: str
    game_id: str
    status: str  # "playing" | "finished" | "forfeit"
    winner: str | None  # seat or "draw"
    kills: dict[str, int]


@dataclass
class Standing:
    rank: int
    player: str
    name: str
    match_points: int
    wins: int
    draws: int
    losses: int
    byes: int
    opponents_match_win: float
    kill_difference: int
    opponents: list[str]


def table_result(round_number: int, table: Table, outcome: Callable[[str], Outcome]) -> TableResult:
    if table.forfeit is not None:
        kills = {s: int(table.forfeit["kills"].get(s, 0)) for s in SEATS}
        return TableResult(round_number, table.table, table.p1, table.p2, table.game_id, "forfeit",
                           table.forfeit["winner"], kills)
    seen = outcome(table.game_id)
    kills = {s: seen.kills.get(s, 0) for s in SEATS}
    status = "finished" if seen.over else "playing"
    return TableResult(round_number, table.table, table.p1, table.p2, table.game_id, status,
                       seen.winner if seen.over else None, kills)


def standings(tournament: Tournament, results: Sequence[TableResult]) -> list[Standing]:
    rows = {
        p: Standing(0, p, e.name, 0, 0, 0, 0, 0, 0.0, 0, []) for p, e in tournament.entrants.items()
    }
    for rnd in tournament.played:
        if rnd.bye is not None:
            rows[rnd.bye].byes += 1
            rows[rnd.bye].wins += 1
            rows[rnd.bye].match_points += 3
    for r in results:
        if r.status == "playing":
            continue
        for seat, player, other in (("p1", r.p1, r.p2), ("p2", r.p2, r.p1)):
            row = rows[player]
            row.opponents.append(other)
            them = "p2" if seat == "p1" else "p1"
            row.kill_difference += r.kills.get(seat, 0) - r.kills.get(them, 0)
            if r.winner == "draw":
                row.draws += 1
                row.match_points += 1
            elif r.winner == seat:
                row.wins += 1
                row.match_points += 3
            else:
                row.losses += 1

    def match_win(p: str) -> float:
        row = rows[p]
        rounds = row.wins + row.draws + row.losses
        return max(1 / 3, row.match_points / (3 * rounds)) if rounds else 1 / 3

    for row in rows.values():
        row.opponents_match_win = (
            round(sum(match_win(o) for o in row.opponents) / len(row.opponents), 4) if row.opponents else 0.0
        )
    ordered = sorted(rows.values(), key=lambda s: (-s.match_points, -s.opponents_match_win, -s.kill_difference, s.player))
    for i, row in enumerate(ordered, 1):
        row.rank = i
    return ordered


# -- the service ------------------------------------------------------------------------------------------

ENTRANT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
NewTokens = Callable[[Sequence[str]], tuple[dict[str, str], dict[str, str]]]


@dataclass(frozen=True)
class StartedTable:
    table: int
    p1: str
    p2: str
    game_id: str
    tokens: dict[str, str]


@dataclass(frozen=True)
class StartedRound:
    round: int
    tables: list[StartedTable]
    bye: str | None


class TournamentService:
    """Organises tournaments over a ``TournamentLog`` and creates their games through the ``GameService``."""

    def __init__(self, log: TournamentLog, games: GameService, new_id: Callable[[], str] | None = None) -> None:
        self.log = log
        self.games = games
        self._new_id = new_id or (lambda: "t-" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"))
        self._lock = threading.Lock()  # one organiser action at a time per process (rounds create games)

    def get(self, tournament_id: str) -> Tournament:
        return fold(tournament_id, self.log.read(tournament_id))

    def list(self, limit: int = 100) -> list[Tournament]:
        return [self.get(t) for t in self.log.list_ids(limit)]

    def create(self, name: str, system: str, fmt: str, rounds: int, variant: dict[str, Any], organiser_hash: str) -> str:
        if fmt not in FORMATS:
            raise TournamentInvalid(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        self._check_setup(system, variant, army=None)
        tournament_id = self._new_id()
        data = {"name": name, "system": system, "format": fmt, "rounds": rounds, "variant": variant,
                "organiser_hash": organiser_hash}
        self.log.append(tournament_id, [("tournament_created", data)], expected_seq=0)
        return tournament_id

    def register(self, tournament_id: str, entrant_id: str, name: str, army: Any) -> Entrant:
        with self._lock:
            t = self.get(tournament_id)
            if t.played:
                raise TournamentRefused("registration is closed: the first round has started", "registration_closed")
            if not ENTRANT_ID.match(entrant_id):
                raise TournamentInvalid(f"invalid player id {entrant_id!r}")
            if entrant_id in t.entrants:
                raise TournamentRefused(f"player {entrant_id!r} is already registered", "already_registered")
            if problem := name_problem(name or ""):  # refused now, not when a round creates the game
                raise TournamentInvalid(problem, "invalid_name")
            self._check_setup(t.system, t.variant, army)
            entrant = Entrant(entrant_id, name or entrant_id, army)
            self.log.append(
                tournament_id, [("player_registered", {"id": entrant_id, "name": entrant.name, "army": army})], t.seq
            )
            return entrant

    def results(self, t: Tournament) -> list[TableResult]:
        return [
            table_result(rnd.number, table, lambda g: game_outcome(self.games, g))
            for rnd in t.played
            for table in rnd.tables
        ]

    def standings(self, tournament_id: str) -> list[Standing]:
        t = self.get(tournament_id)
        return standings(t, self.results(t))

    def start_round(self, tournament_id: str, new_tokens: NewTokens) -> StartedRound:
        """Pair the next round, create its games (tournament, round and table in their metadata) and record it.
        Games are created before the round is recorded: a crash in between leaves unused games, never a round
        pointing at missing ones."""
        with self._lock:
            t = self.get(tournament_id)
            number = len(t.played) + 1
            if number > t.rounds:
                raise TournamentRefused(f"all {t.rounds} rounds have been played", "tournament_over")
            if len(t.entrants) < 2:
                raise TournamentRefused("a round needs at least two registered players", "too_few_players")
            results = self.results(t)
            unfinished = [r for r in results if r.status == "playing"]
            if unfinished:
                tables = ", ".join(f"round {r.round} table {r.table}" for r in unfinished[:5])
                raise TournamentRefused(f"the previous round is not finished: {tables}", "round_unfinished")
            ranked = [s.player for s in standings(t, results)] if t.played else list(t.entrants)
            played = [(tb.p1, tb.p2) for rnd in t.played for tb in rnd.tables]
            byes = [rnd.bye for rnd in t.played if rnd.bye is not None]
            seats: dict[str, list[str]] = {}
            for rnd in t.played:
                for tb in rnd.tables:
                    seats.setdefault(tb.p1, []).append("p1")
                    seats.setdefault(tb.p2, []).append("p2")
            pairing = swiss_pairing(ranked, played, byes, seats)
            started: list[StartedTable] = []
            for i, (p1, p2) in enumerate(pairing.tables, 1):
                tokens, hashes = new_tokens(["scorekeeper", *SEATS])
                players = [
                    {"id": seat, "name": t.entrants[who].name, "army": t.entrants[who].army}
                    for seat, who in zip(SEATS, (p1, p2), strict=True)
                ]
                setup = {"system": t.system, "players": players, "variant": t.variant, "tournament": t.id}
                metadata = {
                    "status": "active",
                    "variant": t.variant,
                    "seats": [
                        {"id": p["id"], "name": p["name"], "army": p["army"] if isinstance(p["army"], str)
                         else f"custom ({len(p['army'])} cards)"} for p in players
                    ],
                    "token_hashes": hashes,
                    "round": number,
                    "table": i,
                    "entrants": {"p1": p1, "p2": p2},
                }
                game = self.games.create_game(setup, metadata)
                started.append(StartedTable(i, p1, p2, game.game_id, tokens))
            data = {
                "round": number,
                "tables": [{"table": s.table, "p1": s.p1, "p2": s.p2, "game_id": s.game_id} for s in started],
                "bye": pairing.bye,
                "rematches": pairing.rematches,
            }
            self.log.append(tournament_id, [("round_started", data)], t.seq)
            return StartedRound(number, started, pairing.bye)

    def enter_result(self, tournament_id: str, round_number: int, table_number: int, winner: str,
                     kills: dict[str, int]) -> TableResult:
        """A result the organiser enters (a forfeit: the game was not played out). A finished game's result
        cannot be overridden."""
        with self._lock:
            t = self.get(tournament_id)
            if not 1 <= round_number <= len(t.played):
                raise TournamentInvalid(f"there is no round {round_number} (rounds started: {len(t.played)})")
            rnd = t.played[round_number - 1]
            if not 1 <= table_number <= len(rnd.tables):
                raise TournamentInvalid(f"round {round_number} has no table {table_number}")
            if winner not in (*SEATS, "draw"):
                raise TournamentInvalid(f"winner must be p1, p2 or draw, not {winner!r}")
            table = rnd.tables[table_number - 1]
            current = table_result(round_number, table, lambda g: game_outcome(self.games, g))
            if current.status == "finished":
                raise TournamentRefused(
                    f"the game of round {round_number} table {table_number} is finished; its result stands",
                    "game_finished",
                )
            data = {"round": round_number, "table": table_number, "winner": winner,
                    "kills": {s: int(kills.get(s, 0)) for s in SEATS}}
            self.log.append(tournament_id, [("result_entered", data)], t.seq)
            table.forfeit = {"winner": winner, "kills": data["kills"]}
            return table_result(round_number, table, lambda g: game_outcome(self.games, g))

    def _check_setup(self, system: str, variant: dict[str, Any], army: Any) -> None:
        """Let the system judge the variant (and an army) by starting a throwaway game; nothing is stored.
        Without an army only a variant error counts (the empty player list is refused on purpose)."""
        from engine.errors import SetupError
        from engine.systems import UnknownSystem, get_system

        try:
            game_system = get_system(system)
        except UnknownSystem as exc:
            raise TournamentInvalid(str(exc.args[0]), "unknown_system") from None
        players = [{"id": s, "name": s, "army": army} for s in SEATS] if army is not None else []
        try:
            game_system.start({"system": system, "players": players, "variant": variant, "seed": 0})
        except SetupError as exc:
            if army is not None or exc.code == "invalid_variant":
                raise TournamentInvalid(exc.message, exc.code) from None
