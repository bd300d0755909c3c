"""The tournament model: a tournament folded from its log, its tables' results and its standings.

The domain of ``replay.tournaments``, apart from the service that organises tournaments
(``replay.tournaments.service``: rounds, games, forfeits) and from where the log is kept (``replay.tournaments.log``:
a stream of kind ``tournament`` in the event store). It imports neither: only the engine's ``Outcome``.

A tournament is a small event log (``tournament_created``, ``player_registered``, ``team_registered``,
``round_started``, ``result_entered``: ``LoggedEvent``); its state is ``fold`` of that log. Every shape a log has
ever written folds (the first logs' two-seat tables ``p1``/``p2``, a forfeit's ``winner``/``kills``). Results are
not copied out of games: a table's result is the ``Outcome`` of its game when asked (``table_result``), or a forfeit
entered by the organiser (placings too), so standings are always those of the record.

A tournament's tables have ``seats`` seats (2 by default when the system allows two, else the most it allows):
- Two seats: Swiss pairs (``replay.tournaments.swiss``). Match points: win 3, draw 1, loss 0; a bye is a win.
- More: pods (``replay.tournaments.pods``), tables of ``seats`` seats, or one fewer where the count demands.
  Place points: a table of n seats gives n-1, n-2, ..., 0 points to its places 1 to n, and seats that tie (or
  a team's seats, placed together) share the points of the places they span (two tied first of four: 2.5 each;
  every table gives out n(n-1)/2 points); a bye is a win (``seats`` - 1 points).
Standings: points, then opponents' match-win percentage (each opponent's points as a share of the most they could
have scored, floored at 1/3, averaged over every opponent of every game; byes are not opponents), then score
difference (the system's ``Outcome.scores``, e.g. cards destroyed: a seat's score minus the mean
of its table's other scores, summed over games), then player id.

Team entrants (``entrants: "teams"``, a system whose variant seats two teams of equal size, odd seats against
even, as the system's ``seats`` say): a team registers once (``team_registered``: a name and seats/2 members, each
with an army) and plays every round as one entrant. Rounds pair teams with the Swiss pairing; at a table the odd
team's members take the odd seats (p1, p3, p5) and the even team's the even seats, in registered member order.
The team that has been odd less often is odd, then the higher-ranked. Standings are of teams, each table read as
two seats, one a team, under the two-seat rules: match points (win 3, draw 1, loss 0, a bye a win), opponents'
match-win percentage, score difference (the team's score minus the opponent team's: a team's score is its seats'
highest, e.g. the team's cards destroyed), then team id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from engine.system import Outcome
from replay.tournaments import day

FORMATS = ("swiss",)
FORFEIT = "forfeit"  # the reason of a result the organiser enters
ENTRANT_KINDS = ("players", "teams")  # who registers: one player a seat, or one team a side


# -- errors -----------------------------------------------------------------------------------------------


class TournamentError(Exception):
    """Base of the errors of tournaments; ``code`` is stable."""

    code = "tournament_error"

    def __init__(self, message: str, code: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule  # the rule a refused deck or army breaks (the system's, e.g. "R4"), where there is one
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


# -- a game's result, as the tournament (and the API's game summary) reads it -------------------------------


@dataclass(frozen=True)
class GameResult:
    """A game's result: its ``Outcome`` once it is over (None while it runs)."""

    outcome: Outcome | None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> str | None:
        return contract_winner(self.outcome)

    @property
    def end_reason(self) -> str | None:
        return self.outcome.reason if self.outcome is not None else None


def contract_winner(outcome: Outcome | None) -> str | None:
    """The contract's ``winner``: the one winning seat, ``draw`` for a draw, None while the game runs or when
    several seats share the win (a team: read ``placings``)."""
    if outcome is None:
        return None
    if outcome.is_draw:
        return "draw"
    return outcome.winners[0] if len(outcome.winners) == 1 else None



# -- the log's events, folded into a tournament ------------------------------------------------------------


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    type: str
    data: dict[str, Any]
    recorded_at: str



@dataclass(frozen=True)
class Member:
    """A member of a team entrant: a name, and the army the member brings to every game."""

    name: str
    army: Any = None


@dataclass
class Entrant:
    id: str
    name: str
    army: Any = None  # what the player brings to every game (None: the system takes nothing)
    members: list[Member] = field(default_factory=list)  # a team's members in seating order ([]: a player)
    checked_in: bool = False  # a tournament with check-in: present for round 1
    absent: bool = False  # not checked in when round 1 was paired: never paired (until entered late)
    dropped_after: int | None = None  # dropped when this many rounds had started: paired no more
    joined: int = 1  # the first round the entrant could be paired in (a late entrant's: after round 1)
    missed: str | None = None  # a late entrant's missed rounds count as "loss" or "bye"


@dataclass(frozen=True)
class Forfeit:
    """A result the organiser entered for a game not played out."""

    placings: tuple[tuple[str, ...], ...]
    scores: dict[str, int]


@dataclass(frozen=True)
class Correction:
    """A result the organiser corrected (``result_corrected``): the table's new placings and scores, why, and the
    result it replaced. Its game holds the same correction (``replay.tournaments.day_service``)."""

    placings: tuple[tuple[str, ...], ...]
    scores: dict[str, int]
    reason: str
    at: str
    was: dict[str, Any] | None = None  # the table's result it replaced (None: logged before issue 31 recorded it)

    def as_json(self) -> dict[str, Any]:
        return {"placings": [list(g) for g in self.placings], "scores": dict(self.scores), "reason": self.reason,
                "at": self.at}


@dataclass
class Table:
    table: int
    seats: dict[str, str]  # seat -> entrant, in seating order
    game_id: str
    forfeit: Forfeit | None = None
    corrections: list[Correction] = field(default_factory=list)  # in the order made; the last one counts
    match: int | None = None  # a cut table: its match in the bracket round
    choice: str | None = None  # a cut table: what the higher seed chose ("first" or "second")


@dataclass
class Round:
    number: int
    tables: list[Table]
    byes: list[str] = field(default_factory=list)
    started_at: str | None = None  # the service's clock when the round started (None: an older log)
    duration: int | None = None  # minutes on the round's clock (None: no clock)
    time_called: dict[str, Any] | None = None  # {"at", "by": "organiser" | "clock", "tables": [...]}
    stage: str = "swiss"  # "swiss" (counts in the standings) or "cut" (a bracket round's games)
    bracket_round: int | None = None  # a cut round: the bracket round its games belong to
    seed: int | None = None  # round 1 of a random (or rating) seeding: the seed its order was drawn from
    missed: dict[str, str] = field(default_factory=dict)  # late entrants who missed the round: "loss" or "bye"

    @property
    def deadline(self) -> str | None:
        end = day.deadline(self.started_at, self.duration)
        return end.isoformat() if end is not None else None

    @property
    def bye(self) -> str | None:
        """The bye of a two-seat round (at most one)."""
        return self.byes[0] if self.byes else None


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
    seats: int = 2  # seats a table (2: Swiss pairs; more: pods, or two teams)
    entry: str = "players"  # who the entrants are: "players" or "teams"
    seq: int = 0
    entrants: dict[str, Entrant] = field(default_factory=dict)
    played: list[Round] = field(default_factory=list)
    tiebreaks: tuple[str, ...] = day.DEFAULT_TIEBREAKS  # the standings' order, chosen at creation
    cut_draws: str = "replay"  # a drawn cut game: "replay" or "time_rule"
    cut: tuple[int, tuple[str, ...]] | None = None  # the cut's size and seeds (entrant ids, seed 1 first)
    seeding: str = "registration"  # round 1's order: "random", "rating", or (logs before seeding) "registration"
    check_in: bool = False  # only checked-in players are paired in round 1
    replaced: dict[str, str] = field(default_factory=dict)  # a game no longer at its table -> why (swap, re-pair)
    catalogue: str | None = None  # the catalogue pinned as the format (its id); None: the system's default
    decks_required: bool = False  # every entrant registers with a deck or army
    points_limit: int | None = None  # the most points an army may cost (a system whose armies have points)

    @property
    def swiss_rounds(self) -> list[Round]:
        """The rounds that count in the standings (not the cut's)."""
        return [r for r in self.played if r.stage == "swiss"]


def finished(t: Tournament, results: Sequence[TableResult], bracket: Mapping[str, Any] | None) -> bool:
    """Whether ``t`` has ended: every Swiss round played, no table still playing, and the cut (``bracket``, if
    any) has its champion."""
    return len(t.swiss_rounds) == t.rounds and all(r.status != "playing" for r in results) and (
        bracket is None or bracket["champion"] is not None)


def _seat_map(table: Mapping[str, Any]) -> dict[str, str]:
    """A logged table's seats: ``seats`` (any count), or the first logs' ``p1``/``p2``."""
    if "seats" in table:
        return {str(seat): str(who) for seat, who in table["seats"].items()}
    return {"p1": str(table["p1"]), "p2": str(table["p2"])}


def logged_forfeit(data: Mapping[str, Any], seats: Sequence[str]) -> Forfeit:
    """A logged forfeit: ``placings`` and ``scores``, or the first logs' two-seat ``winner`` and ``kills``."""
    if "placings" in data:
        placings = tuple(tuple(group) for group in data["placings"])
        scores = dict(data.get("scores") or {})
    else:
        placings = placings_of_winner(data["winner"], seats)
        scores = dict(data.get("kills") or {})
    return Forfeit(placings, {seat: int(scores.get(seat, 0)) for seat in seats})


def fold(tournament_id: str, log: Sequence[LoggedEvent]) -> Tournament:
    tournament: Tournament | None = None
    for event in log:
        d = event.data
        if event.type == "tournament_created":
            tournament = Tournament(
                tournament_id, d["name"], d["system"], d["format"], d["rounds"], d.get("variant", {}),
                d["organiser_hash"], event.recorded_at, seats=int(d.get("seats", 2)),
                entry=str(d.get("entrants", "players")),
                tiebreaks=tuple(d.get("tiebreaks") or day.DEFAULT_TIEBREAKS),
                cut_draws=str(d.get("cut_draws", "replay")),
                seeding=str(d.get("seeding", "registration")), check_in=bool(d.get("check_in", False)),
                catalogue=d.get("catalogue"), decks_required=bool(d.get("decks_required", False)),
                points_limit=d.get("points_limit"),
            )
        elif tournament is None:
            raise TournamentNotFound(tournament_id)
        elif event.type == "player_registered":
            tournament.entrants[d["id"]] = Entrant(d["id"], d["name"], d.get("army"))
        elif event.type == "team_registered":
            members = [Member(m["name"], m.get("army")) for m in d["members"]]
            tournament.entrants[d["id"]] = Entrant(d["id"], d["name"], None, members)
        elif event.type == "round_started":
            tables = [Table(t["table"], _seat_map(t), t["game_id"], match=t.get("match"), choice=t.get("choice"))
                      for t in d["tables"]]
            byes = list(d["byes"]) if "byes" in d else [d["bye"]] if d.get("bye") else []
            tournament.played.append(Round(d["round"], tables, byes, started_at=d.get("started_at"),
                                           duration=d.get("duration"), stage=str(d.get("stage", "swiss")),
                                           bracket_round=d.get("bracket_round"), seed=d.get("seed")))
            for absent in d.get("absent", ()):
                tournament.entrants[absent].absent = True
        elif event.type == "result_entered":
            table = tournament.played[d["round"] - 1].tables[d["table"] - 1]
            table.forfeit = logged_forfeit(d, list(table.seats))
        elif event.type in ATTENDANCE:
            fold_attendance(tournament, event)
        else:
            _fold_day(tournament, event)
        if tournament is not None:
            tournament.seq = event.seq
    if tournament is None:
        raise TournamentNotFound(tournament_id)
    return tournament


def _fold_day(tournament: Tournament, event: LoggedEvent) -> None:
    """The tournament day's events (issue 31): a corrected result, time called, the cut."""
    d = event.data
    if event.type == "result_corrected":
        table = tournament.played[d["round"] - 1].tables[d["table"] - 1]
        correction = logged_forfeit(d, list(table.seats))
        table.corrections.append(Correction(correction.placings, correction.scores, str(d["reason"]),
                                            str(d.get("at") or event.recorded_at), d.get("was")))
    elif event.type == "time_called":
        tournament.played[d["round"] - 1].time_called = {"at": d["at"], "by": d["by"], "tables": list(d["tables"])}
    elif event.type == "cut_started":
        tournament.cut = (int(d["size"]), tuple(d["seeds"]))


# -- results and standings ------------------------------------------------------------------------------


def placings_of_winner(winner: str, seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The placings of the two-seat shorthand: ``winner`` first, or ``draw`` (every seat together)."""
    if winner == "draw":
        return (tuple(seats),)
    if winner not in seats or len(seats) != 2:
        raise TournamentInvalid(f"winner must be one of {', '.join(seats)} or draw, not {winner!r}"
                                if len(seats) == 2 else
                                f"a table of {len(seats)} seats takes placings, not a winner", "invalid_result")
    return ((winner,), tuple(s for s in seats if s != winner))


def played_table(t: Tournament, round_number: int, table_number: int) -> Table:
    """A table of a started round; ``TournamentInvalid`` when the round or the table does not exist."""
    if not 1 <= round_number <= len(t.played):
        raise TournamentInvalid(f"there is no round {round_number} (rounds started: {len(t.played)})")
    rnd = t.played[round_number - 1]
    if not 1 <= table_number <= len(rnd.tables):
        raise TournamentInvalid(f"round {round_number} has no table {table_number}")
    return rnd.tables[table_number - 1]


def table_seats(t: Tournament, round_number: int, table_number: int) -> list[str]:
    """The seats of a table; ``TournamentInvalid`` when the round or the table does not exist."""
    return list(played_table(t, round_number, table_number).seats)


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    seats: dict[str, str]  # seat -> entrant
    game_id: str
    status: str  # "playing" | "finished" | "forfeit"
    placings: tuple[tuple[str, ...], ...] | None  # None while playing
    scores: dict[str, int]  # every seat's (0 where the system scores nothing)
    corrections: tuple[Correction, ...] = ()  # the organiser's corrections, the last one counting
    original: dict[str, Any] | None = None  # a corrected table: the result before its first correction

    @property
    def outcome(self) -> Outcome | None:
        if self.placings is None:
            return None
        return Outcome.ranked(self.placings, FORFEIT if self.status == "forfeit" else
                              "corrected" if self.status == "corrected" else "game", self.scores)

    @property
    def winner(self) -> str | None:
        return contract_winner(self.outcome)

    def as_json(self) -> dict[str, Any]:
        """The table as the API and the CLI show it: ``seats`` and ``placings``; ``p1``, ``p2``, ``winner`` and
        ``kills`` (= ``scores``) as two-seat clients have always read them."""
        return {
            "round": self.round, "table": self.table, "p1": self.seats.get("p1"), "p2": self.seats.get("p2"),
            "seats": dict(self.seats), "game_id": self.game_id, "status": self.status, "winner": self.winner,
            "placings": [list(group) for group in self.placings] if self.placings is not None else None,
            "scores": dict(self.scores), "kills": dict(self.scores),
            "original": self.original, "corrections": [c.as_json() for c in self.corrections],
        }


@dataclass
class Standing:
    rank: int
    player: str
    name: str
    match_points: int | float
    wins: int
    draws: int
    losses: int
    byes: int
    opponents_match_win: float
    score_difference: int | float
    opponents: list[str]
    members: list[str] | None = None  # a team's members' names (None: the entrant is a player)
    tiebreaks: list[dict[str, Any]] = field(default_factory=list)  # the tournament's, in order: name, value, why
    dropped: bool = False  # the entrant dropped out (kept in the standings with its results)
    dropped_after: int | None = None  # dropped after this many rounds had started (None: still playing)

    @property
    def kill_difference(self) -> int | float:
        """The score difference's first name (the first tournaments scored cards destroyed: kills)."""
        return self.score_difference

    def as_json(self) -> dict[str, Any]:
        """The row as the API and the CLI show it (``kill_difference``: the score difference's first name)."""
        return {**self.__dict__, "opponents": list(self.opponents), "kill_difference": self.score_difference}


def table_result(round_number: int, table: Table, outcome: Callable[[str], GameResult]) -> TableResult:
    """A table's result: its last correction if the organiser corrected it (``original`` the result before), else
    the result entered, else its game's."""
    played = _played_result(round_number, table, outcome)
    if not table.corrections:
        return played
    last = table.corrections[-1]
    # the result before the first correction: as its event records it (the game holds the correction since issue
    # 31), else (logged before) the result entered or the game's, which the correction left as it was
    original = table.corrections[0].was or result_json(played)
    return replace(played, status="corrected", placings=last.placings, scores=dict(last.scores),
                   corrections=tuple(table.corrections), original=original)


def result_json(result: TableResult) -> dict[str, Any]:
    """A table's result as ``original`` shows it (and ``result_corrected`` records it as ``was``)."""
    return {"status": result.status, "winner": result.winner,
            "placings": [list(g) for g in result.placings] if result.placings is not None else None,
            "scores": dict(result.scores)}


def _played_result(round_number: int, table: Table, outcome: Callable[[str], GameResult]) -> TableResult:
    seats = list(table.seats)
    if table.forfeit is not None:
        return TableResult(round_number, table.table, dict(table.seats), table.game_id, "forfeit",
                           table.forfeit.placings, dict(table.forfeit.scores))
    seen = outcome(table.game_id).outcome
    if seen is None:
        return TableResult(round_number, table.table, dict(table.seats), table.game_id, "playing", None,
                           {s: 0 for s in seats})
    return TableResult(round_number, table.table, dict(table.seats), table.game_id, "finished", seen.placings,
                       {s: int(seen.scores.get(s, 0)) for s in seats})


def grouped(placings: Sequence[Sequence[str]]) -> list[frozenset[str]]:
    """Placings compared as results (the order within a group does not count)."""
    return [frozenset(group) for group in placings]


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def place_points(outcome: Outcome, seat: str, seats: int) -> Fraction:
    """A seat's place points at a table of ``seats``: places 1..n give n-1..0; tied seats share their places'."""
    first = outcome.place_of(seat)
    group = next(len(g) for g in outcome.placings if seat in g)
    return Fraction(sum(seats - place for place in range(first, first + group)), group)


def team_scores(result: TableResult) -> dict[str, int]:
    """Each team's score at a table: the highest of its seats' (a team game scores every seat of a team alike)."""
    out: dict[str, int] = {}
    for seat, team in result.seats.items():
        out[team] = max(out.get(team, 0), int(result.scores.get(seat, 0)))
    return out


def team_standings(tournament: Tournament, results: Sequence[TableResult]) -> list[Standing]:
    """Standings of team entrants: each team table read as a table of two seats, one per team (``_as_teams``),
    under the two-seat rules: match points (win 3, draw 1, loss 0, a bye a win), opponents' match-win percentage
    (floored at 1/3), score difference (the team's score minus the opponent team's), team id."""
    return _standings(tournament, [_as_teams(r) for r in results], pairs=True)


def _as_teams(result: TableResult) -> TableResult:
    """A team table as a table whose seats are its teams (each seat named after its team), placed and scored as
    the teams were (``team_scores``)."""
    placings = None if result.placings is None else tuple(
        tuple(dict.fromkeys(result.seats[seat] for seat in group)) for group in result.placings
    )
    teams = dict.fromkeys(result.seats.values())
    return replace(result, seats={team: team for team in teams}, placings=placings, scores=team_scores(result))


def standings(tournament: Tournament, results: Sequence[TableResult]) -> list[Standing]:
    swiss = {r.number for r in tournament.swiss_rounds}
    results = [r for r in results if r.round in swiss]  # the cut's games decide the bracket, not the standings
    if tournament.entry == "teams":
        rows = team_standings(tournament, results)
    else:
        rows = _standings(tournament, results, pairs=tournament.seats == 2)
    return attendance(tournament, rows)


def _standings(tournament: Tournament, results: Sequence[TableResult], pairs: bool) -> list[Standing]:
    """The standings of the module's docstring: Swiss match points when ``pairs``, else place points."""
    bye_points = 3 if pairs else tournament.seats - 1
    points: dict[str, Fraction] = {p: Fraction(0) for p in tournament.entrants}
    most: dict[str, int] = {p: 0 for p in tournament.entrants}  # the points each could have scored
    difference: dict[str, Fraction] = {p: Fraction(0) for p in tournament.entrants}
    rows = {p: Standing(0, p, e.name, 0, 0, 0, 0, 0, 0.0, 0, [],
                        [m.name for m in e.members] if tournament.entry == "teams" else None)
            for p, e in tournament.entrants.items()}
    ledger = day.Ledger.empty(tournament.entrants)
    for rnd in tournament.played:
        for player in rnd.byes:
            rows[player].byes += 1
            rows[player].wins += 1
            points[player] += bye_points
            most[player] += bye_points
        for player, missed in rnd.missed.items():  # a late entrant's missed round: a bye, or a loss
            rows[player].byes += missed == "bye"
            rows[player].wins += missed == "bye"
            rows[player].losses += missed == "loss"
            points[player] += bye_points if missed == "bye" else 0
            most[player] += bye_points
    for r in results:
        outcome = r.outcome
        if outcome is None:
            continue
        n = len(r.seats)
        ledger.meet([[r.seats[seat] for seat in group] for group in outcome.placings])
        for seat, player in r.seats.items():
            row = rows[player]
            others = [s for s in r.seats if s != seat]
            row.opponents.extend(r.seats[s] for s in others)
            difference[player] += r.scores.get(seat, 0) - Fraction(sum(r.scores.get(s, 0) for s in others), len(others))
            if outcome.is_draw:
                row.draws += 1
            elif seat in outcome.winners:
                row.wins += 1
            else:
                row.losses += 1
            gained = ((1 if outcome.is_draw else 3 if seat in outcome.winners else 0) if pairs
                      else place_points(outcome, seat, n))
            points[player] += gained
            most[player] += 3 if pairs else n - 1
            ledger.game_points[player] += gained
            ledger.game_most[player] += 3 if pairs else n - 1

    def match_win(p: str) -> Fraction:
        return max(Fraction(1, 3), points[p] / most[p]) if most[p] else Fraction(1, 3)

    for p, row in rows.items():
        row.match_points = _number(points[p])
        row.score_difference = _number(difference[p])
        row.opponents_match_win = (
            round(float(sum((match_win(o) for o in row.opponents), Fraction(0)) / len(row.opponents)), 4)
            if row.opponents else 0.0
        )
    ledger.points, ledger.most, ledger.difference = points, most, difference
    ledger.opponents = {p: row.opponents for p, row in rows.items()}
    ranked, values = day.order(list(rows), ledger, tournament.tiebreaks)
    ordered = [rows[p] for p in ranked]
    for i, row in enumerate(ordered, 1):
        row.rank = i
        row.tiebreaks = [{"name": name, "value": day.shown_value(name, values[row.player][name]),
                          "explanation": day.TIEBREAKS[name]} for name in tournament.tiebreaks]
    return ordered


# -- attendance: check-in, unregistering, late entry, drops; swaps and re-pairings -------------------------------

MISSED = ("loss", "bye")  # what a late entrant's missed rounds count as (the organiser's choice)
ATTENDANCE = ("player_unregistered", "player_checked_in", "player_registered_late", "player_dropped",
              "players_swapped", "round_repaired")


def fold_attendance(tournament: Tournament, event: LoggedEvent) -> None:
    """The attendance events and the organiser's changes to a round's tables (docs/api.md, "Tournaments"):
    - ``player_unregistered`` ``{id, reason?}``: before round 1, the entrant is gone;
    - ``player_checked_in`` ``{id}``: present for round 1 (a tournament with check-in);
    - ``player_registered_late`` ``{id, name, army?, round, missed}``: enters a running tournament from ``round``
      (its missed rounds, 1 to ``round`` - 1, count as ``missed``: ``loss`` or ``bye``); an entrant absent from
      round 1 (not checked in) enters the same way under their id;
    - ``player_dropped`` ``{id, after, reason?}``: paired no more once ``after`` rounds had started; results kept;
    - ``players_swapped`` ``{round, players, reason, tables, byes}`` and ``round_repaired`` ``{round, reason,
      seed?, tables, byes}``: the round's changed tables (each with its new game) and its byes; the games those
      tables had are replaced (``Tournament.replaced``)."""
    d = event.data
    if event.type == "player_unregistered":
        tournament.entrants.pop(d["id"], None)
    elif event.type == "player_checked_in":
        tournament.entrants[d["id"]].checked_in = True
    elif event.type == "player_registered_late":
        entrant = tournament.entrants.get(d["id"]) or Entrant(d["id"], d["name"], d.get("army"))
        entrant.name, entrant.army = d["name"], d.get("army")
        entrant.absent, entrant.joined, entrant.missed = False, int(d["round"]), str(d["missed"])
        tournament.entrants[d["id"]] = entrant
        for rnd in tournament.played[: entrant.joined - 1]:
            rnd.missed[entrant.id] = entrant.missed
    elif event.type == "player_dropped":
        tournament.entrants[d["id"]].dropped_after = int(d["after"])
    elif event.type in ("players_swapped", "round_repaired"):
        rnd = tournament.played[d["round"] - 1]
        new = {t["table"]: Table(t["table"], _seat_map(t), t["game_id"]) for t in d["tables"]}
        why = f"{'a swap' if event.type == 'players_swapped' else 're-pairing'} in round {rnd.number}: {d['reason']}"
        kept = [] if event.type == "round_repaired" else [t for t in rnd.tables if t.table not in new]
        for old in rnd.tables:
            if old not in kept and old.game_id not in {t.game_id for t in new.values()}:
                tournament.replaced[old.game_id] = why
        rnd.tables = sorted([*kept, *new.values()], key=lambda t: t.table)
        rnd.byes = list(d.get("byes", rnd.byes))
        if "seed" in d:
            rnd.seed = d["seed"]


def is_paired(entrant: Entrant, round_number: int) -> bool:
    """Whether the entrant is paired in round ``round_number``: registered by then, not absent, not dropped."""
    return (not entrant.absent and entrant.joined <= round_number
            and (entrant.dropped_after is None or entrant.dropped_after >= round_number))


def attendance(tournament: Tournament, rows: list[Standing]) -> list[Standing]:
    """Standings as attendance shows them: dropped entrants marked (``dropped_after``), entrants absent from
    round 1 who never entered left out (they played nothing), ranks counted again."""
    shown = [row for row in rows if not tournament.entrants[row.player].absent]
    for rank, row in enumerate(shown, 1):
        row.rank = rank
        row.dropped_after = tournament.entrants[row.player].dropped_after
        row.dropped = row.dropped_after is not None
    return shown
