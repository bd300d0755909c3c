"""The tournament service: it organises tournaments (``replay.tournaments.model``) kept in a ``TournamentLog``
(``replay.tournaments.log``: streams of the event store) and creates their games through the ``GameService``.

A table's result and its game's result are one fact (docs/contract.md). A forfeit is written to the game first: the
scorekeeper's ``adjudicate`` (the forfeit's placings, reason ``judge``, a note saying it was a forfeit) ends the
game, and only then is ``result_entered`` logged (with the scores to count). So a failure between the two writes
leaves a game over whose outcome is the forfeit's, which the table reads as its result (entering the forfeit again
logs it); a game that ended first refuses the adjudication, and its result stands (``game_finished``). A game that
ends decides its table (its outcome is read). A forfeit logged before forfeits adjudicated games, whose game still
runs, is settled the same way the first time the tournament's results are read or the game is acted on.
"""

from __future__ import annotations

import builtins
import re
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from engine.adjudication import Adjudicate
from engine.errors import RuleError
from engine.system import seat_id
from replay.catalogues import CATALOGUE, defaults, resolve_setup
from replay.errors import CatalogueNotFound, CatalogueRefused, GameNotFound
from replay.log.service import GameService, name_problem
from replay.store.base import CatalogueStoring
from replay.tournaments import day
from replay.tournaments.day_service import NewTokens, TournamentDay, utc_now
from replay.tournaments.decks import POINTS_RULE, army_label, army_points
from replay.tournaments.log import TournamentLog
from replay.tournaments.model import (
    ENTRANT_KINDS,
    FORMATS,
    MISSED,
    Entrant,
    GameResult,
    Member,
    Round,
    Standing,
    Table,
    TableResult,
    Tournament,
    TournamentError,
    TournamentInvalid,
    TournamentNotFound,
    TournamentRefused,
    finished,
    grouped,
    is_paired,
    logged_forfeit,
    played_table,
    standings,
    table_result,
    table_seats,
)
from replay.tournaments.pods import pod_pairing
from replay.tournaments.swiss import SEEDINGS, first_round, seeding_order, swiss_pairing

FORFEIT_NOTE = "forfeit entered by the tournament's organiser for round {round}, table {table}"



def game_outcome(games: GameService, game_id: str) -> GameResult:
    """The result of the game's latest state, from its system's ``outcome``."""
    _, state = games.state(game_id)
    return GameResult(games.system_of(game_id).outcome(state))



# -- the service ------------------------------------------------------------------------------------------

ENTRANT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
# (a system, its tables' seats) -> each rated player's rating by the name they play under (``seeding_ratings``)
Ratings = Callable[[str, int], Mapping[str, float]]


def seeding_ratings(statistic: Callable[[str, Any], Any]) -> Ratings:
    """The ratings ``seeding: "rating"`` reads, from the ratings statistic the analytics compute (``statistic``:
    (its name, its ``Filters``) -> its result): Elo (``ratings``) for tables of two seats, openskill's ordinal
    (``multiplayer-ratings``) for more; every game of the system counts."""
    from replay.analytics.stats import Filters

    def ratings(system: str, seats: int) -> dict[str, float]:
        if seats == 2:
            return {row.player: float(row.rating) for row in statistic("ratings", Filters(system=system)).rows}
        return {row.player: float(row.ordinal)
                for row in statistic("multiplayer-ratings", Filters(system=system)).rows}

    return ratings


@dataclass(frozen=True)
class StartedTable:
    table: int
    seats: dict[str, str]  # seat -> entrant
    game_id: str
    tokens: dict[str, str]

    def as_json(self) -> dict[str, Any]:
        return {"table": self.table, "p1": self.seats.get("p1"), "p2": self.seats.get("p2"),
                "seats": dict(self.seats), "game_id": self.game_id, "tokens": dict(self.tokens)}


@dataclass(frozen=True)
class StartedRound:
    round: int
    tables: list[StartedTable]
    byes: list[str]

    @property
    def bye(self) -> str | None:
        return self.byes[0] if self.byes else None

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "bye": self.bye, "byes": list(self.byes),
                "tables": [t.as_json() for t in self.tables]}


def seat_listing(players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A game's ``seats`` metadata (what ``GET /games/{id}`` lists): each player's seat, name and army label."""
    return [{"id": p["id"], "name": p["name"], **({"army": army_label(p["army"])} if "army" in p else {})}
            for p in players]


class TournamentService(TournamentDay):
    """Organises tournaments over a ``TournamentLog`` and creates their games through the ``GameService``; the
    day's operations (corrections, the clock, the cut, exports) are ``TournamentDay``'s."""

    def __init__(self, log: TournamentLog, games: GameService, new_id: Callable[[], str] | None = None,
                 clock: Callable[[], datetime] | None = None, ratings: Ratings | None = None) -> None:
        self.log = log
        self.games = games
        self.ratings = ratings  # the ratings statistic of a system (seeding by rating), None where there is none
        self._new_id = new_id or (lambda: "t-" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"))
        self._lock = threading.RLock()  # one organiser action at a time per process (rounds create games)
        self._settled: set[str] = set()  # games whose table's forfeit (if any) is known to be in the game
        self.clock = clock or utc_now  # recorded in rounds' events (their start, time called)
        self._clocked: set[str] = set()
        self._corrected: set[tuple[str, int]] = set()  # (game, its table's corrections) known to be in the game

    def _table_result(self, round_number: int, table: Table) -> TableResult:
        return table_result(round_number, table, lambda g: game_outcome(self.games, g))

    @staticmethod
    def _started_round(number: int, tables: builtins.list[StartedTable], byes: builtins.list[str]) -> StartedRound:
        return StartedRound(number, tables, byes)

    def get(self, tournament_id: str) -> Tournament:
        """The tournament folded from its log; a running round whose deadline has passed has its time called
        first (``TournamentDay``)."""
        return self._fold_due(tournament_id)

    def list(self, limit: int = 100) -> builtins.list[Tournament]:
        return [self.get(t) for t in self.log.list_ids(limit)]

    def create(self, name: str, system: str, fmt: str, rounds: int, variant: dict[str, Any], organiser_hash: str,
               seats: int | None = None, entrants: str = "players", tiebreaks: Sequence[str] | None = None,
               cut_draws: str = "replay", seeding: str = "random", check_in: bool = False,
               catalogue: str | None = None, decks_required: bool = False, points_limit: int | None = None) -> str:
        """``seats``: seats a table (None: two when the system allows two, else the most its variant allows).
        ``entrants``: ``players`` (one a seat) or ``teams`` (one a side, for a variant played in two teams).
        ``tiebreaks``: the standings' order (``day.TIEBREAKS``; None: ``day.DEFAULT_TIEBREAKS``); ``cut_draws``:
        a drawn cut game is replayed or decided by the time rule. ``seeding``: round 1's order (``SEEDINGS``);
        ``check_in``: only checked-in entrants are paired in round 1. The format (issue 30): ``catalogue``, a stored
        catalogue of the system pinned by id (None: the system's built-in data); ``decks_required``: every entrant
        registers a deck or army; ``points_limit``: the most points an army may have (a system whose armies have
        points)."""
        pinned = self._pinned(system, catalogue)
        seats = self.judge(system, fmt, variant, seats, entrants, pinned)
        if points_limit is not None:
            self._check_points_limit(system, seats, points_limit)
        if tiebreaks is not None and (problem := day.check_tiebreaks(tiebreaks)):
            raise TournamentInvalid(problem, "invalid_tiebreaks")
        if cut_draws not in day.CUT_DRAWS:
            raise TournamentInvalid(f"cut_draws is one of {', '.join(day.CUT_DRAWS)}, not {cut_draws!r}",
                                    "invalid_cut_draws")
        if seeding not in SEEDINGS:
            raise TournamentInvalid(f"seeding must be one of {', '.join(SEEDINGS)}, not {seeding!r}",
                                    "invalid_seeding")
        tournament_id = self._new_id()
        data = {"name": name, "system": system, "format": fmt, "rounds": rounds, "variant": variant,
                "organiser_hash": organiser_hash, "seats": seats,
                **({"entrants": entrants} if entrants != "players" else {}),
                **({"tiebreaks": list(tiebreaks)} if tiebreaks is not None else {}),
                **({"cut_draws": cut_draws} if cut_draws != "replay" else {}),
                "seeding": seeding, **({"check_in": True} if check_in else {}),
                **({"catalogue": catalogue} if pinned is not None else {}),
                **({"decks_required": True} if decks_required else {}),
                **({"points_limit": points_limit} if points_limit is not None else {})}
        self.log.append(tournament_id, [("tournament_created", data)], expected_seq=0)
        return tournament_id

    @classmethod
    def judge(cls, system: str, fmt: str, variant: dict[str, Any], seats: int | None = None,
              entrants: str = "players", catalogue: dict[str, Any] | None = None) -> int:
        """What ``create`` checks before it stores anything: the format, the entrants, a table size the system's
        variant allows, the variant itself (the system starts a throwaway game). -> the table's seats (``seats``
        or the default); TournamentInvalid. Needs no log: ``warlog tournament create`` asks before it opens the
        database. ``catalogue``: the document of the catalogue pinned as the format (None: the default)."""
        if fmt not in FORMATS:
            raise TournamentInvalid(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        if entrants not in ENTRANT_KINDS:
            raise TournamentInvalid(f"entrants must be one of {', '.join(ENTRANT_KINDS)}, not {entrants!r}",
                                    "invalid_entrants")
        seats = cls._table_size(system, variant, seats)
        cls._check_setup(system, variant, seats, catalogue=catalogue)
        if entrants == "teams":
            cls._check_two_teams(system, variant, seats)
        return seats

    def register(self, tournament_id: str, entrant_id: str, name: str, army: Any = None) -> Entrant:
        with self._lock:
            t = self.get(tournament_id)
            if t.entry == "teams":
                raise TournamentInvalid("this tournament's entrants are teams: register a team (its name, members "
                                        "and their armies), not a player", "entrants_are_teams")
            self._check_open(t, entrant_id, "player")
            if problem := name_problem(name or ""):  # refused now, not when a round creates the game
                raise TournamentInvalid(problem, "invalid_name")
            entrant = Entrant(entrant_id, name or entrant_id, army)
            self._check_deck(t, entrant)
            data = {"id": entrant_id, "name": entrant.name, **({"army": army} if army is not None else {})}
            self.log.append(tournament_id, [("player_registered", data)], t.seq)
            return entrant

    def register_team(self, tournament_id: str, team_id: str, name: str,
                      members: Sequence[tuple[str, Any]]) -> Entrant:
        """Register a team of a team tournament: ``members`` (name, army), exactly seats/2 of them, in the order
        they take their side's seats. Every member's army is checked by the game system."""
        with self._lock:
            t = self.get(tournament_id)
            if t.entry != "teams":
                raise TournamentInvalid("this tournament's entrants are players: register players, not a team "
                                        "(create the tournament with entrants \"teams\" for a team event)",
                                        "entrants_are_players")
            self._check_open(t, team_id, "team")
            if team_id == "draw":
                raise TournamentInvalid("a team cannot be called 'draw' (a forfeit's winning_team names a draw)")
            name = name or team_id
            if problem := name_problem(name):
                raise TournamentInvalid(problem.replace("player name", "team name"), "invalid_name")
            size = t.seats // 2
            if len(members) != size:
                raise TournamentInvalid(f"a team of this tournament ({t.seats} seats a table) has exactly {size} "
                                        f"members, not {len(members)}", "invalid_members")
            taken = {m.name.strip().casefold(): e.id for e in t.entrants.values() for m in e.members}
            seen: set[str] = set()
            for member_name, army in members:
                key = member_name.strip().casefold()
                if not key:
                    raise TournamentInvalid("a team member needs a name", "invalid_members")
                if key in seen:
                    raise TournamentInvalid(f"member {member_name!r} is named twice in the team", "duplicate_member")
                if key in taken:
                    raise TournamentInvalid(f"member {member_name!r} already plays for team {taken[key]!r}",
                                            "duplicate_member")
                seen.add(key)
                if problem := name_problem(member_name):
                    raise TournamentInvalid(problem, "invalid_name")
                try:
                    self._check_deck(t, Entrant(team_id, member_name, army))
                except TournamentInvalid as exc:
                    raise TournamentInvalid(f"member {member_name!r}: {exc.message}", exc.code, exc.rule) from None
            entrant = Entrant(team_id, name, None, [Member(n, a) for n, a in members])
            data = {"id": team_id, "name": name,
                    "members": [{"name": n, **({"army": a} if a is not None else {})} for n, a in members]}
            self.log.append(tournament_id, [("team_registered", data)], t.seq)
            return entrant

    def team_placings(self, t: Tournament, round_number: int, table_number: int,
                      winner: str) -> tuple[tuple[str, ...], ...]:
        """The placings of a team table's forfeit: the winning team's seats first, or ``draw`` (every seat)."""
        table = played_table(t, round_number, table_number)
        seats = list(table.seats)
        if winner == "draw":
            return (tuple(seats),)
        teams = list(dict.fromkeys(table.seats.values()))
        if winner not in teams:
            raise TournamentInvalid(f"the winning team must be one of {', '.join(teams)} (the table's teams) or "
                                    f"draw, not {winner!r}", "invalid_result")
        return (tuple(s for s in seats if table.seats[s] == winner),
                tuple(s for s in seats if table.seats[s] != winner))

    def team_seat_scores(self, t: Tournament, round_number: int, table_number: int,
                         scores: Mapping[str, int]) -> dict[str, int]:
        """Scores given per team, as the table's seats hold them (each seat of a team its team's score)."""
        table = played_table(t, round_number, table_number)
        unknown = sorted(set(scores) - set(table.seats.values()))
        if unknown:
            raise TournamentInvalid(f"scores for teams not at the table: {', '.join(unknown)}", "invalid_result")
        return {seat: int(scores.get(team, 0)) for seat, team in table.seats.items()}

    def _check_open(self, t: Tournament, entrant_id: str, kind: str) -> None:
        if t.played:
            raise TournamentRefused("registration is closed: the first round has started", "registration_closed")
        if not ENTRANT_ID.match(entrant_id):
            raise TournamentInvalid(f"invalid {kind} id {entrant_id!r}")
        if entrant_id in t.entrants:
            raise TournamentRefused(f"{kind} {entrant_id!r} is already registered", "already_registered")

    def results(self, t: Tournament) -> builtins.list[TableResult]:
        self._settle(t)
        self._settle_corrections(t)
        return [
            table_result(rnd.number, table, lambda g: game_outcome(self.games, g))
            for rnd in t.played
            for table in rnd.tables
        ]

    def standings(self, tournament_id: str) -> builtins.list[Standing]:
        t = self.get(tournament_id)
        return standings(t, self.results(t))

    def start_round(self, tournament_id: str, new_tokens: NewTokens, duration: int | None = None) -> StartedRound:
        """Seat the next round (Swiss pairs or pods), create its games (tournament, round and table in their
        metadata) and record it. Games are created before the round is recorded: a crash in between leaves
        unused games, never a round pointing at missing ones. ``duration``: minutes on the round's clock."""
        with self._lock:
            t = self.get(tournament_id)
            clock = self.clock_fields(duration)
            number = len(t.played) + 1
            if number > t.rounds:
                raise TournamentRefused(f"all {t.rounds} rounds have been played", "tournament_over")
            results = self.results(t)
            unfinished = [r for r in results if r.status == "playing"]
            if unfinished:
                tables = ", ".join(f"round {r.round} table {r.table}" for r in unfinished[:5])
                raise TournamentRefused(f"the previous round is not finished: {tables}", "round_unfinished")
            seated, round_byes, paired = self._pair(t, number, results)
            started = [self._start_table(t, number, i, players, new_tokens) for i, players in enumerate(seated, 1)]
            data = {
                "round": number,
                "tables": [{"table": s.table, "seats": s.seats, "game_id": s.game_id} for s in started],
                "byes": round_byes,
                **paired,
                **clock,
            }
            self.log.append(tournament_id, [("round_started", data)], t.seq)
            if duration is not None:
                self._clocked.add(tournament_id)
            return StartedRound(number, started, round_byes)

    def _pair(self, t: Tournament, number: int, results: Sequence[TableResult],
              seed: int | None = None) -> tuple[builtins.list[builtins.list[str]], builtins.list[str], dict[str, Any]]:
        """Seat round ``number`` from the rounds before it: (each table's entrants in seat order, the byes, what the
        round's event records of how it was paired: ``rematches``, and in round 1 ``seeding``, ``seed``,
        ``ratings`` and ``absent``). Pairs every entrant ``is_paired`` in that round (round 1 of a tournament with
        check-in: the checked-in); round 1 in the tournament's seeding order, later rounds in standings order (Swiss
        pairs or pods). ``seed`` (re-pairing a started round: its recorded seed, 0 where it has none) leaves out the
        entrants dropped meanwhile, and draws round 1 from that seed (None: a fresh one)."""
        before = replace(t, played=t.played[: number - 1])
        smallest = self._smallest_table(t)
        kind = "teams" if t.entry == "teams" else "players"
        playing = [e.id for e in t.entrants.values() if is_paired(e, number) and (
            number > 1 or not t.check_in or e.checked_in) and (seed is None or e.dropped_after is None)]
        if len(playing) < smallest:
            why = ("only checked-in players are paired in round 1" if t.check_in and number == 1 else
                   "dropped or absent ones are not paired")
            raise TournamentRefused(f"a round needs at least {smallest} registered {kind} to pair ({why})",
                                    "too_few_players")
        recorded: dict[str, Any] = {}
        points: dict[str, Any] = {}
        if number == 1:
            seed = seed or secrets.randbits(63)
            rated = self._ratings_of(t) if t.seeding == "rating" else {}
            ranked = seeding_order(playing, t.seeding, seed, rated)
            recorded = {"seeding": t.seeding, **({"seed": seed} if t.seeding != "registration" else {}),
                        **({"ratings": rated} if t.seeding == "rating" else {}),
                        **({"absent": [p for p in t.entrants if p not in playing]} if t.check_in else {})}
        else:
            table = standings(before, [r for r in results if r.round < number])
            ranked = [s.player for s in table if s.player in playing]
            points = {s.player: s.match_points for s in table}
        byes = [b for rnd in before.played for b in [*rnd.byes, *(p for p, m in rnd.missed.items() if m == "bye")]]
        if t.entry == "teams":
            seated, round_byes, repeats = self._pair_teams(before, ranked, byes, points)
        elif t.seats == 2 and number == 1:
            first = first_round(ranked, t.seeding)
            seated, round_byes, repeats = [list(p) for p in first.tables], [first.bye] if first.bye else [], 0
        elif t.seats == 2:
            seat_names: dict[str, list[str]] = {}
            for rnd in before.played:
                for tb in rnd.tables:
                    for seat, who in tb.seats.items():
                        seat_names.setdefault(who, []).append(seat)
            pairs = [tuple(tb.seats.values()) for rnd in before.played for tb in rnd.tables]
            pairing = swiss_pairing(ranked, pairs, byes, seat_names, points)  # type: ignore[arg-type]
            seated = [list(pair) for pair in pairing.tables]
            round_byes, repeats = [pairing.bye] if pairing.bye else [], pairing.rematches
        else:
            history: dict[str, list[tuple[int, int]]] = {}
            for rnd in before.played:
                for tb in rnd.tables:
                    for index, who in enumerate(tb.seats.values()):
                        history.setdefault(who, []).append((index, len(tb.seats)))
            tables_played = [list(tb.seats.values()) for rnd in before.played for tb in rnd.tables]
            pods = pod_pairing(ranked, tables_played, byes, history, smallest, t.seats)
            seated = [list(table) for table in pods.tables]
            round_byes, repeats = list(pods.byes), pods.repeats
        return seated, round_byes, {"rematches": repeats, **recorded}

    def _ratings_of(self, t: Tournament) -> dict[str, float]:
        """The entrants' ratings (``seeding: "rating"``): each rated entrant's rating by the name they play under,
        from the ratings statistic (``ratings``, given to the service); the unrated are left out."""
        if self.ratings is None:
            raise TournamentRefused("seeding by rating needs the ratings statistic, which this server cannot "
                                    "compute (statistics need the DuckDB store or PostgreSQL's published file)",
                                    "ratings_unavailable")
        table = self.ratings(t.system, t.seats)
        return {e.id: float(table[e.name]) for e in t.entrants.values() if e.name in table}

    @staticmethod
    def _pair_teams(t: Tournament, ranked: Sequence[str], byes: Sequence[str],
                    points: Mapping[str, Any]) -> tuple[builtins.list[builtins.list[str]], builtins.list[str], int]:
        """Swiss pairs of teams, each table (odd team, even team): the team that has been odd less often is odd,
        then the higher-ranked."""
        odd: dict[str, int] = {team: 0 for team in t.entrants}
        met: builtins.list[tuple[str, str]] = []
        for rnd in t.played:
            for tb in rnd.tables:
                odd[tb.seats["p1"]] += 1
                teams = list(dict.fromkeys(tb.seats.values()))
                met.append((teams[0], teams[1]))
        pairing = swiss_pairing(ranked, met, byes, points=points)  # no seat history: (higher-ranked, lower-ranked)
        rank = {team: i for i, team in enumerate(ranked)}
        seated = []
        for a, b in pairing.tables:
            high, low = (a, b) if rank[a] < rank[b] else (b, a)
            seated.append([high, low] if odd[high] <= odd[low] else [low, high])
        return seated, [pairing.bye] if pairing.bye else [], pairing.rematches

    def _start_table(self, t: Tournament, number: int, table: int, players: Sequence[str],
                     new_tokens: NewTokens) -> StartedTable:
        if t.entry == "teams":  # (odd team, even team): members alternate p1 odd, p2 even, p3 odd, ...
            odd, even = (t.entrants[who] for who in players)
            pairs = [(who, member) for i in range(t.seats // 2)
                     for who, member in ((odd.id, odd.members[i]), (even.id, even.members[i]))]
            seats = {seat_id(i): who for i, (who, _) in enumerate(pairs)}
            setup_players = [{"id": seat_id(i), "name": m.name, **({"army": m.army} if m.army is not None else {})}
                             for i, (_, m) in enumerate(pairs)]
        else:
            seats = {seat_id(i): who for i, who in enumerate(players)}
            setup_players = [
                {"id": seat, "name": t.entrants[who].name,
                 **({"army": t.entrants[who].army} if t.entrants[who].army is not None else {})}
                for seat, who in seats.items()
            ]
        setup = {"system": t.system, "players": setup_players, "variant": t.variant, "tournament": t.id,
                 **({CATALOGUE: t.catalogue} if t.catalogue is not None else {})}  # the game resolves the id
        system = self._system(t.system)
        seat_ids = [seat.id for seat in system.seats(setup)]
        tokens, hashes = new_tokens(["scorekeeper", *seat_ids])
        metadata = {
            "status": "active",
            "variant": t.variant,
            "seats": seat_listing(setup_players),
            "token_hashes": hashes,
            "round": number,
            "table": table,
            "entrants": seats,
        }
        game = self.games.create_game(setup, metadata)
        return StartedTable(table, seats, game.game_id, tokens)

    def enter_result(self, tournament_id: str, round_number: int, table_number: int,
                     placings: Sequence[Sequence[str]], scores: Mapping[str, int] | None = None) -> TableResult:
        """A result the organiser enters (a forfeit: the game was not played out): the table's seats in
        finishing order, tied seats together (``placings_of_winner`` makes the two-seat shorthand's), and the
        scores to count for the tie-break (a seat left out: 0). The game is ended with these placings first
        (``_decide_game``); a finished game's result cannot be overridden."""
        with self._lock:
            t = self.get(tournament_id)
            seats = table_seats(t, round_number, table_number)
            table = t.played[round_number - 1].tables[table_number - 1]
            groups = self._checked_placings(t, round_number, table_number, placings, scores)
            self._decide_game(table, groups, round_number, table_number)
            data = {"round": round_number, "table": table_number, "placings": groups,
                    "scores": {s: int((scores or {}).get(s, 0)) for s in seats}}
            self.log.append(tournament_id, [("result_entered", data)], t.seq)
            table.forfeit = logged_forfeit(data, seats)
            return table_result(round_number, table, lambda g: game_outcome(self.games, g))

    def _checked_placings(self, t: Tournament, round_number: int, table_number: int,
                          placings: Sequence[Sequence[str]],
                          scores: Mapping[str, int] | None) -> builtins.list[builtins.list[str]]:
        """A result's placings as groups of seats, checked against the table (every seat once, a team's seats
        together, scores only for its seats); TournamentInvalid ``invalid_result`` naming what is wrong."""
        table = played_table(t, round_number, table_number)
        seats = list(table.seats)
        groups = [[str(seat) for seat in group] for group in placings]
        placed = sorted(seat for group in groups for seat in group)
        if placed != sorted(seats) or any(not group for group in groups):
            raise TournamentInvalid(
                f"placings must hold every seat of the table ({', '.join(seats)}) exactly once, in non-empty "
                f"groups; got {groups}", "invalid_result")
        if t.entry == "teams":
            split = [team for team in dict.fromkeys(table.seats.values())
                     if sum(1 for g in groups if any(table.seats[s] == team for s in g)) > 1]
            if split:
                raise TournamentInvalid(f"a team's seats finish together: team {split[0]!r} is split across "
                                        "placings (name the winning team, or draw)", "invalid_result")
        unknown = sorted(set(scores or {}) - set(seats))
        if unknown:
            raise TournamentInvalid(f"scores for seats the table does not have: {', '.join(unknown)}",
                                    "invalid_result")
        return groups

    def _decide_game(self, table: Table, placings: Sequence[Sequence[str]], round_number: int,
                     table_number: int) -> None:
        """A forfeit's result written to the table's game first (the module's docstring): a running game is ended
        by the scorekeeper's adjudication of these placings; a game over must already have them by an
        adjudication (an earlier forfeit whose log write failed, or the same result adjudicated at the table),
        else its result stands (``game_finished``)."""
        try:
            outcome = game_outcome(self.games, table.game_id).outcome
        except GameNotFound:
            return  # a round logged with a game that was never stored: the log alone holds the table's result
        if outcome is None:
            self._adjudicate(table, placings, round_number, table_number)
        elif outcome.adjudication is None or grouped(outcome.placings) != grouped(placings):
            raise TournamentRefused(
                f"the game of round {round_number} table {table_number} is finished; its result stands",
                "game_finished",
            )

    def _adjudicate(self, table: Table, placings: Sequence[Sequence[str]], round_number: int,
                    table_number: int) -> None:
        """End the table's running game with the forfeit's placings (the scorekeeper's ``adjudicate``)."""
        action = Adjudicate(reason="judge", placings=tuple(tuple(group) for group in placings),
                            note=FORFEIT_NOTE.format(round=round_number, table=table_number))
        try:
            self.games.act(table.game_id, action)
        except RuleError as exc:
            if exc.code == "game_over":  # it ended while the forfeit was entered: its result stands
                raise TournamentRefused(f"the game of round {round_number} table {table_number} is finished; "
                                        "its result stands", "game_finished") from None
            raise TournamentInvalid(exc.message, "invalid_result") from None
        self._settled.add(table.game_id)

    def _settle(self, t: Tournament) -> None:
        """Forfeits logged while their games ran (before forfeits adjudicated games): end those games now, by the
        forfeit's adjudication. A game that ended otherwise meanwhile keeps its result; the table keeps the forfeit
        it always had."""
        for rnd in t.played:
            for table in rnd.tables:
                if table.forfeit is None or table.game_id in self._settled:
                    continue
                try:
                    if game_outcome(self.games, table.game_id).outcome is None:
                        self._adjudicate(table, table.forfeit.placings, rnd.number, table.table)
                except (GameNotFound, TournamentError):
                    pass
                self._settled.add(table.game_id)

    def is_settled(self, game_id: str) -> bool:
        """The game is known to hold its table's forfeit, if its table has one (``settle_game`` need not look)."""
        return game_id in self._settled

    def settle_game(self, tournament_id: str, game_id: str) -> None:
        """Before an action on a tournament's game: a forfeit logged for its table while it ran ends it first (then
        the action is refused: the game is over); a game a swap or a re-pairing replaced refuses every action
        (``table_replaced``)."""
        try:
            t = self.get(tournament_id)
        except TournamentNotFound:
            self._settled.add(game_id)
            return
        if game_id in t.replaced:
            raise TournamentRefused(f"this game is no longer at its table ({t.replaced[game_id]}): play the table's "
                                    "new game", "table_replaced")
        self._settle(t)
        self._settled.add(game_id)

    # -- attendance: unregister, check in, late entry, drop (model.fold_attendance) ---------------------------------

    def _entrant(self, t: Tournament, entrant_id: str) -> Entrant:
        if entrant_id not in t.entrants:
            raise TournamentInvalid(f"there is no player {entrant_id!r} in this tournament", "unknown_player")
        return t.entrants[entrant_id]

    def unregister(self, tournament_id: str, entrant_id: str, reason: str | None = None) -> Entrant:
        """Before round 1 only: the entrant is gone (their id may register again)."""
        with self._lock:
            t = self.get(tournament_id)
            entrant = self._entrant(t, entrant_id)
            if t.played:
                raise TournamentRefused(f"{entrant_id!r} cannot be unregistered: round 1 has started (a player "
                                        "leaving a running tournament is dropped, and keeps their results)",
                                        "unregister_closed")
            data = {"id": entrant_id, **({"reason": reason} if reason else {})}
            self.log.append(tournament_id, [("player_unregistered", data)], t.seq)
            return entrant

    def check_in(self, tournament_id: str, entrant_id: str) -> Entrant:
        """A tournament with check-in, before round 1: the entrant is present (checking in twice changes nothing)."""
        with self._lock:
            t = self.get(tournament_id)
            entrant = self._entrant(t, entrant_id)
            if not t.check_in:
                raise TournamentRefused("this tournament does not use check-in (it pairs every registered player; "
                                        "create it with check_in true to pair only the checked-in)", "no_check_in")
            if t.played:
                raise TournamentRefused(f"{entrant_id!r} cannot check in: round 1 has started (a player arriving "
                                        "now enters late, with a loss or a bye for the missed rounds)",
                                        "check_in_closed")
            if not entrant.checked_in:
                self.log.append(tournament_id, [("player_checked_in", {"id": entrant_id})], t.seq)
                entrant.checked_in = True
            return entrant

    def register_late(self, tournament_id: str, entrant_id: str, name: str, army: Any = None,
                      missed: str = "loss") -> Entrant:
        """Into a running tournament of players: paired from the next round; each round already started counts as
        ``missed`` (``loss`` or ``bye``) for them. A player registered but absent from round 1 (not checked in)
        enters the same way under their id (their name and army unless given anew)."""
        with self._lock:
            t = self.get(tournament_id)
            if missed not in MISSED:
                raise TournamentInvalid(f"a late entrant's missed rounds count as one of {', '.join(MISSED)}, not "
                                        f"{missed!r}", "invalid_missed")
            if t.entry == "teams":
                raise TournamentInvalid("this tournament's entrants are teams: a late entry is a player's",
                                        "entrants_are_teams")
            if not t.played:
                raise TournamentRefused("round 1 has not started: register the player (no rounds are missed yet)",
                                        "registration_open")
            number = len(t.played) + 1
            if number > t.rounds:
                raise TournamentRefused(f"all {t.rounds} rounds have started: there is no round left to enter",
                                        "tournament_over")
            known = t.entrants.get(entrant_id)
            if known is not None and not known.absent:
                raise TournamentRefused(f"player {entrant_id!r} is already registered", "already_registered")
            if not ENTRANT_ID.match(entrant_id):
                raise TournamentInvalid(f"invalid player id {entrant_id!r}")
            name = name or (known.name if known is not None else entrant_id)
            army = army if army is not None else (known.army if known is not None else None)
            if problem := name_problem(name):
                raise TournamentInvalid(problem, "invalid_name")
            entrant = Entrant(entrant_id, name, army, joined=number, missed=missed)
            self._check_deck(t, entrant)
            data = {"id": entrant_id, "name": name, **({"army": army} if army is not None else {}),
                    "round": number, "missed": missed}
            self.log.append(tournament_id, [("player_registered_late", data)], t.seq)
            return entrant

    def drop(self, tournament_id: str, entrant_id: str, reason: str | None = None) -> Entrant:
        """A running tournament: the entrant is paired no more from the next round; their results (and a table of
        theirs still playing) stand, and the standings show them dropped."""
        with self._lock:
            t = self.get(tournament_id)
            entrant = self._entrant(t, entrant_id)
            if not t.played:
                raise TournamentRefused(f"round 1 has not started: unregister {entrant_id!r} instead of dropping",
                                        "not_started")
            if entrant.dropped_after is not None:
                raise TournamentRefused(f"{entrant_id!r} was dropped already (after round {entrant.dropped_after})",
                                        "already_dropped")
            if entrant.absent:
                raise TournamentRefused(f"{entrant_id!r} never played (absent from round 1): there is nothing to "
                                        "drop from", "not_playing")
            data = {"id": entrant_id, "after": len(t.played), **({"reason": reason} if reason else {})}
            self.log.append(tournament_id, [("player_dropped", data)], t.seq)
            entrant.dropped_after = len(t.played)
            return entrant

    # -- the organiser's changes to a round before it starts: swap two players, re-pair ---------------------------

    def _has_moves(self, game_id: str) -> bool:
        """Whether a seat (or the scorekeeper) has acted in the game: its recorded actions (opening events, the
        deal, are none)."""
        try:
            events = [r.event for r in self.games.events(game_id)]
        except GameNotFound:
            return False
        return bool(self.games.system_of(game_id).recorded_actions(events))

    def _current_round(self, t: Tournament, round_number: int, what: str) -> Round:
        if not 1 <= round_number <= len(t.played):
            raise TournamentInvalid(f"there is no round {round_number} (rounds started: {len(t.played)})",
                                    "unknown_round")
        if round_number != len(t.played):
            raise TournamentRefused(f"round {round_number} is over: only the current round ({len(t.played)}) can "
                                    f"be {what}", "round_over")
        return t.played[round_number - 1]

    def _refuse_started(self, rnd: Round, tables: Sequence[Table], what: str) -> None:
        for table in tables:
            if table.forfeit is not None or self._has_moves(table.game_id):
                raise TournamentRefused(f"round {rnd.number} table {table.table} has started (its game has a move "
                                        f"or a result): {what} only before a table's game starts", "table_started")

    def _retire(self, replaced: Sequence[Table], why: str) -> None:
        """Games no longer at their table: their listing says so; an action on them is refused (``settle_game``)."""
        for table in replaced:
            self._settled.discard(table.game_id)
            try:
                self.games.store.update_metadata(table.game_id, {"status": "replaced", "replaced": why})
            except GameNotFound:
                pass

    def swap(self, tournament_id: str, round_number: int, first: str, second: str, reason: str,
             new_tokens: NewTokens) -> StartedRound:
        """Swap two players of the current round (at two tables, or one at a table and one with the bye), each
        taking the other's seat, before either table's game has a move: the changed tables get new games (their
        tokens in the answer), the old games are replaced. -> the changed tables and the round's byes."""
        with self._lock:
            t = self.get(tournament_id)
            if not (reason or "").strip():
                raise TournamentInvalid("a swap needs a reason (it is recorded with the round)", "reason_required")
            if t.entry == "teams":
                raise TournamentInvalid("a team tournament's tables seat teams: swapping players is for players",
                                        "entrants_are_teams")
            rnd = self._current_round(t, round_number, "changed")
            where: dict[str, Table | None] = {}
            for who in (first, second):
                self._entrant(t, who)
                at = next((tb for tb in rnd.tables if who in tb.seats.values()), None)
                if at is None and who not in rnd.byes:
                    raise TournamentInvalid(f"{who!r} is not paired in round {round_number}", "not_in_round")
                where[who] = at
            if first == second or (where[first] is not None and where[first] is where[second]):
                raise TournamentInvalid(f"{first!r} and {second!r} sit at the same table: a swap is between two "
                                        "tables (or a table and the bye)", "same_table")
            if where[first] is None and where[second] is None:
                raise TournamentInvalid("both players have a bye: there is no table to swap", "same_table")
            changed = [tb for tb in (where[first], where[second]) if tb is not None]
            self._refuse_started(rnd, changed, "players are swapped")
            other = {first: second, second: first}
            started = [self._start_table(t, round_number, tb.table,
                                         [other.get(who, who) for who in tb.seats.values()], new_tokens)
                       for tb in changed]
            byes = [other.get(who, who) for who in rnd.byes]
            why = f"a swap in round {round_number}: {reason.strip()}"
            data = {"round": round_number, "players": [first, second], "reason": reason.strip(),
                    "tables": [{"table": s.table, "seats": s.seats, "game_id": s.game_id} for s in started],
                    "byes": byes}
            self.log.append(tournament_id, [("players_swapped", data)], t.seq)
            self._retire(changed, why)
            return StartedRound(round_number, started, byes)

    def repair(self, tournament_id: str, round_number: int, reason: str, new_tokens: NewTokens) -> StartedRound:
        """Pair the current round again (after a drop, a late entry or a mistake), before any of its tables' games
        has a move: the same pairing rules over who is to be paired now (round 1 from its recorded seed), every
        table a new game, the old games replaced."""
        with self._lock:
            t = self.get(tournament_id)
            if not (reason or "").strip():
                raise TournamentInvalid("re-pairing a round needs a reason (it is recorded with the round)",
                                        "reason_required")
            rnd = self._current_round(t, round_number, "re-paired")
            self._refuse_started(rnd, rnd.tables, "a round is re-paired")
            results = self.results(t)
            seated, byes, paired = self._pair(t, round_number, results, seed=rnd.seed or 0)
            started = [self._start_table(t, round_number, i, players, new_tokens)
                       for i, players in enumerate(seated, 1)]
            data = {"round": round_number, "reason": reason.strip(),
                    "tables": [{"table": s.table, "seats": s.seats, "game_id": s.game_id} for s in started],
                    "byes": byes, **{k: v for k, v in paired.items() if k != "absent"}}
            self.log.append(tournament_id, [("round_repaired", data)], t.seq)
            self._retire(rnd.tables, f"re-pairing in round {round_number}: {reason.strip()}")
            return StartedRound(round_number, started, byes)

    @staticmethod
    def _system(name: str) -> Any:
        from engine.systems import UnknownSystem, get_system

        try:
            return get_system(name)
        except UnknownSystem as exc:
            raise TournamentInvalid(str(exc.args[0]), "unknown_system") from None

    def _smallest_table(self, t: Tournament) -> int:
        """Pods are ``seats`` seats, or one fewer where the count of players demands it and the system allows it."""
        if t.seats == 2 or t.entry == "teams":
            return 2  # two players, or two teams
        counts = self._system(t.system).seat_counts({"system": t.system, "variant": t.variant, "players": []})
        return max(counts.min, t.seats - 1)

    @classmethod
    def _check_two_teams(cls, system: str, variant: dict[str, Any], seats: int) -> None:
        """Team entrants need a variant of ``seats`` played in two teams, the odd seats against the even seats."""
        from engine.errors import SetupError

        players = [{"id": seat_id(i), "name": seat_id(i)} for i in range(seats)]
        try:
            table = cls._system(system).seats({"system": system, "players": players, "variant": variant})
        except SetupError as exc:
            raise TournamentInvalid(exc.message, exc.code) from None
        teams = [s.team for s in table]
        if seats < 4 or None in teams or any(teams[i] != teams[i % 2] for i in range(seats)) or teams[0] == teams[1]:
            raise TournamentInvalid(
                f"entrants \"teams\" need a variant played by two teams of equal size, odd seats against even "
                f"seats; {system} with {seats} seats and this variant is not (docs/api.md, \"Tournaments\", says "
                f"which variants are)", "invalid_entrants")

    @classmethod
    def _table_size(cls, system_name: str, variant: dict[str, Any], seats: int | None) -> int:
        """The seats a table of this tournament has: ``seats`` if the system's variant allows it. Refused, the
        answer is the system's own reason for a table of ``seats`` where it gives one (e.g. the variant a seat count
        needs, issue 28 item 25)."""
        from engine.errors import SetupError

        system = cls._system(system_name)
        counts = system.seat_counts({"system": system_name, "variant": variant, "players": []})
        if seats is None:
            return 2 if 2 in counts else counts.max
        if seats not in counts:
            message = f"{system_name} with this variant is played by {counts} players, not {seats}"
            players = [{"id": seat_id(i), "name": seat_id(i)} for i in range(seats)]
            try:
                system.seats({"system": system_name, "players": players, "variant": variant})
            except SetupError as exc:
                message = f"{system_name}: {exc.message}"
            raise TournamentInvalid(message, "invalid_seats")
        return seats

    @classmethod
    def _check_setup(cls, system: str, variant: dict[str, Any], seats: int, entrant: Entrant | None = None,
                     catalogue: dict[str, Any] | None = None) -> Sequence[Any]:
        """Let the system judge the variant (and what an entrant brings) by starting a throwaway game of ``seats``
        players, each one the entrant, on ``catalogue`` (a document; None: the system's default); nothing is stored.
        Without an entrant only a variant error counts (the players of the throwaway game bring nothing, which a
        system may refuse). -> the game's opening events (none when the system refused players bringing nothing)."""
        from engine.errors import SetupError

        game_system = cls._system(system)
        army = {"army": entrant.army} if entrant is not None and entrant.army is not None else {}
        name = entrant.name if entrant is not None else None
        players = [{"id": seat_id(i), "name": name or seat_id(i), **army} for i in range(seats)]
        setup = {"system": system, "players": players, "variant": variant, "seed": 0,
                 **({CATALOGUE: catalogue} if catalogue is not None else {})}
        try:
            return tuple(game_system.start(setup))
        except SetupError as exc:
            if entrant is not None or exc.code in ("invalid_variant", "invalid_catalogue"):
                raise TournamentInvalid(exc.message, exc.code, exc.rule) from None
            return ()

    # -- the format: a pinned catalogue, decks required, a points limit (issue 30) ------------------------------

    def _pinned(self, system: str, catalogue: str | None) -> dict[str, Any] | None:
        """The document of the catalogue a tournament pins by id (None: none pinned, or the system's default named
        by its id). Raises CatalogueNotFound (404) for an id not stored, CatalogueRefused ``unknown_catalogue``
        (422) for another system's, ``catalogue_not_supported`` for a system that takes none."""
        if catalogue is None:
            return None
        self._system(system)
        store = self.games.store
        if not any(summary.id == catalogue for summary, _ in defaults().values()):
            if not isinstance(store, CatalogueStoring):
                raise CatalogueNotFound(catalogue)
            store.get_catalogue(catalogue)  # no such catalogue at all: 404, before whose it is
        document = resolve_setup(store, {"system": system, CATALOGUE: catalogue}).get(CATALOGUE)
        return document if isinstance(document, dict) else None

    def ended(self, t: Tournament) -> bool:
        """Whether ``t`` has ended (``finished``): every round played and decided, its cut's final too."""
        results = self.results(t)
        return finished(t, results, self.bracket_json(t, results))

    def catalogue_of(self, t: Tournament) -> dict[str, Any] | None:
        """The document of the catalogue ``t`` pins (None: the system's default)."""
        return self._pinned(t.system, t.catalogue)

    def _check_deck(self, t: Tournament, entrant: Entrant) -> None:
        """What an entrant brings, judged by the tournament's format: a deck when ``decks_required``; the system's
        rules on the pinned catalogue (a throwaway game, ``_check_setup``); the points limit. TournamentInvalid with
        the system's code (``invalid_deck``, ``invalid_army``) and the rule broken; nothing is stored."""
        if entrant.army is None and t.decks_required:
            raise TournamentInvalid("this tournament requires a deck or army at registration (decks_required): "
                                    "name a deck of the catalogue or give your own list", "deck_required")
        try:
            document = self.catalogue_of(t)
        except CatalogueRefused as exc:  # the pinned catalogue was stored when the tournament was created
            raise TournamentInvalid(exc.message, exc.code) from None
        opening = self._check_setup(t.system, t.variant, t.seats, entrant=entrant, catalogue=document)
        points = army_points(opening)
        if t.points_limit is not None and entrant.army is not None and points is not None and points > t.points_limit:
            raise TournamentInvalid(f"this army has {points} points: this tournament's armies have at most "
                                    f"{t.points_limit} points", "invalid_army", POINTS_RULE)

    @classmethod
    def _check_points_limit(cls, system: str, seats: int, limit: int) -> None:
        """A points limit is for a system whose armies have points (their game records them: ``army_points``),
        found by starting the system's sample game."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise TournamentInvalid(f"points_limit is a whole number of points, 1 or more, not {limit!r}",
                                    "invalid_points_limit")
        from engine.errors import SetupError

        try:  # points belong to the system's armies, not to a variant: its own sample game tells
            game_system = cls._system(system)
            opening = game_system.start(game_system.sample_setup(0, 0, seats))
        except SetupError:
            opening = ()
        if army_points(tuple(opening)) is None:
            raise TournamentInvalid(f"{system}'s armies have no points: a points limit is for a system whose armies "
                                    "are counted in points", "invalid_points_limit")
