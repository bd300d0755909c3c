"""The organiser's day (issue 31 items 3-6), a part of ``TournamentService`` (``replay.tournaments.service``):
corrected results, the round clock and time called, the cut to a final, the history and the exports.

Decisions (docs/api.md, "Tournaments", says them to users):
- A **correction** changes the table's result and its game's, one fact (docs/contract.md, "A corrected result"):
  the game first, by the organiser's correction (``engine.adjudication.correction``: a ``game_ended`` whose
  adjudication has reason ``correction``, the reason as its note, ``by: organiser``, after the one it corrects: the
  game's stream keeps both, the last counts), then ``result_corrected`` is logged with the result it replaces
  (``was``). So the game's page, its record (export, import, verify) and every statistic of games (win rates,
  ratings, first-player advantage) read the corrected result, as the standings do. A failure between the two writes
  leaves a game whose result is already the correction (the table reads it; correcting again logs it). A table whose
  game was never stored (a round logged with games never created) has no game to carry the correction: the log
  alone holds it. A forfeited table's game (ended by the forfeit's adjudication) is corrected like any other. The
  table then reads the correction (status ``corrected``) with the result before the first one (``original``) and
  every correction made; standings recompute on read. A correction needs a reason; it is refused for a table
  without a result (enter one), for a Swiss table once the cut is seeded, and for a cut table once a later round
  has started. Corrections logged before corrections reached games (issue 31's first version) are written to their
  games the first time the tournament's results are read (``_settle_corrections``).
- **Time** is called by the organiser, or by the clock: once a round's deadline has passed, the first read or write
  of the tournament calls it (``get``), and so does the server's sweep (``sweep_clocks``, every few seconds). Every
  game of the round still running is ended by the scorekeeper's ``adjudicate`` with reason ``time`` (the system's
  own rule decides), the games first, then ``time_called`` is logged (the tables it ended).
- **The cut** is a bracket of two-sided tables played as rounds of the tournament (``stage: "cut"``, numbered after
  the Swiss rounds): results, corrections and the clock work on them as on any round; they do not count in the
  standings. A drawn cut game is replayed (a new game of the same match, started with the next cut games) or, with
  ``cut_draws: "time_rule"``, decided by the system's time rule on the game's final position; if that is a draw
  too, the higher seed goes through.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine.adjudication import Adjudicate, correction
from engine.errors import RuleError
from events import CORRECTION, Adjudication
from replay.errors import GameNotFound
from replay.tournaments import day
from replay.tournaments.model import (
    Round,
    Table,
    TableResult,
    Tournament,
    TournamentConflict,
    TournamentInvalid,
    TournamentRefused,
    fold,
    grouped,
    played_table,
    result_json,
    standings,
)

if TYPE_CHECKING:
    from replay.log.service import GameService
    from replay.tournaments.log import TournamentLog

NewTokens = Callable[[Sequence[str]], tuple[dict[str, str], dict[str, str]]]  # roles -> (tokens, their hashes)

TIME_NOTE = "time called by the {who} for round {round}"


def utc_now() -> datetime:
    return datetime.now(UTC)


class TournamentDay:
    """The day's operations of ``TournamentService`` (this module's docstring). ``clock``: the service's clock
    (tests set it); it is recorded in events (a round's start, time called), never read by the engine."""

    log: TournamentLog
    games: GameService
    _lock: threading.RLock
    _clocked: set[str]  # tournaments seen with a round whose clock runs (the sweep's list)
    _corrected: set[tuple[str, int]]  # (game, corrections of its table) known to be in the game
    clock: Callable[[], datetime]

    # the parts of TournamentService this mixin uses (StartedTable, StartedRound: replay.tournaments.service's)
    def results(self, t: Tournament) -> list[TableResult]: ...  # type: ignore[empty-body]
    def _start_table(self, t: Tournament, number: int, table: int, players: Sequence[str],
                     new_tokens: NewTokens) -> Any: ...
    def _started_round(self, number: int, tables: list[Any], byes: list[str]) -> Any: ...
    def _table_result(self, round_number: int, table: Table) -> TableResult: ...  # type: ignore[empty-body]
    def _checked_placings(self, t: Tournament, round_number: int, table_number: int,  # type: ignore[empty-body]
                          placings: Sequence[Sequence[str]], scores: Mapping[str, int] | None) -> list[list[str]]: ...

    def now_text(self) -> str:
        return self.clock().isoformat()

    def clock_fields(self, duration: int | None) -> dict[str, Any]:
        """What a ``round_started`` records of its clock: when it started, and its duration in minutes if any."""
        if duration is not None and not 1 <= duration <= day.MAX_DURATION:
            raise TournamentInvalid(f"a round's duration is 1 to {day.MAX_DURATION} minutes, not {duration}",
                                    "invalid_duration")
        return {"started_at": self.now_text(), **({"duration": duration} if duration is not None else {})}

    # -- corrections -----------------------------------------------------------------------------------

    def correct_result(self, tournament_id: str, round_number: int, table_number: int,
                       placings: Sequence[Sequence[str]], scores: Mapping[str, int] | None,
                       reason: str | None) -> TableResult:
        """Correct a table's result and its game's (this module's docstring)."""
        with self._lock:
            t = self._fold_due(tournament_id)
            table = played_table(t, round_number, table_number)
            if not (reason or "").strip():
                raise TournamentInvalid("a correction needs a reason: say why the result changes (e.g. \"score "
                                        "sheet misread\")", "reason_required")
            groups = self._checked_placings(t, round_number, table_number, placings, scores)
            seats = list(table.seats)
            new_scores = {s: int((scores or {}).get(s, 0)) for s in seats}
            current = self._table_result(round_number, table)
            if current.placings is None:
                raise TournamentRefused(f"round {round_number} table {table_number} has no result to correct yet: "
                                        "enter its result (POST .../result)", "no_result")
            rnd = t.played[round_number - 1]
            if rnd.stage == "swiss" and t.cut is not None:
                raise TournamentRefused("the cut is seeded from the Swiss standings: a Swiss result cannot be "
                                        "corrected after the cut", "cut_made")
            if rnd.stage == "cut" and round_number < len(t.played):
                raise TournamentRefused(f"the bracket has gone on after round {round_number}: its results stand",
                                        "bracket_advanced")
            why = str(reason).strip()
            retried = self._holds_correction(table, groups, why)
            if not retried and grouped(current.placings) == grouped(groups) and current.scores == new_scores:
                raise TournamentInvalid("the correction changes nothing: it names the table's result as it is",
                                        "correction_unchanged")
            was = result_json(current)  # the result this correction replaces (a correction's, the 2nd time)
            if not retried:
                self._correct_game(table, groups, why)
            data = {"round": round_number, "table": table_number, "placings": groups, "scores": new_scores,
                    "reason": why, "at": self.now_text(), "was": was}
            self.log.append(tournament_id, [("result_corrected", data)], t.seq)
            corrected = fold(tournament_id, self.log.read(tournament_id))
            return self._table_result(round_number, corrected.played[round_number - 1].tables[table_number - 1])

    def _holds_correction(self, table: Table, placings: Sequence[Sequence[str]], reason: str) -> bool:
        """Whether the table's game already ends in this very correction (an earlier attempt whose log write failed:
        only the log is written now)."""
        try:
            _, state = self.games.state(table.game_id)
        except GameNotFound:
            return False
        last = getattr(state, "adjudication", None)
        return isinstance(last, Adjudication) and last.reason == CORRECTION and last.note == reason and grouped(
            last.placings) == grouped(placings)

    def _correct_game(self, table: Table, placings: Sequence[Sequence[str]], reason: str) -> None:
        """Write the correction to the table's game (this module's docstring); nothing for a game never stored."""
        try:
            self.games.act(table.game_id, correction(placings, reason))
        except GameNotFound:
            return
        except RuleError as exc:
            raise TournamentInvalid(exc.message, "invalid_reason" if exc.code in ("bad_note", "reason_required")
                                    else "invalid_result") from None

    def _settle_corrections(self, t: Tournament) -> None:
        """Corrections logged before corrections reached games: write each table's last one to its game, once
        (a game whose result already is that correction's is left alone)."""
        for rnd in t.played:
            for table in rnd.tables:
                if not table.corrections or (table.game_id, len(table.corrections)) in self._corrected:
                    continue
                last = table.corrections[-1]
                try:
                    outcome = self.games.system_of(table.game_id).outcome(self.games.state(table.game_id)[1])
                    if outcome is not None and grouped(outcome.placings) != grouped(last.placings):
                        self.games.act(table.game_id, correction(last.placings, last.reason))
                except (GameNotFound, RuleError):
                    pass  # never stored, or not over: the log alone holds the table's result
                self._corrected.add((table.game_id, len(table.corrections)))

    # -- the round clock ------------------------------------------------------------------------------

    def _fold_due(self, tournament_id: str) -> Tournament:
        """The tournament, with time called first if its running round's deadline has passed (by the clock)."""
        t = fold(tournament_id, self.log.read(tournament_id))
        rnd = t.played[-1] if t.played else None
        if rnd is None or rnd.time_called is not None or rnd.duration is None:
            return t
        end = day.deadline(rnd.started_at, rnd.duration)
        if end is None or self.clock() < end:
            self._clocked.add(tournament_id)
            return t
        if all(self._table_result(rnd.number, table).placings is not None for table in rnd.tables):
            self._clocked.discard(tournament_id)
            return t  # every table finished in time: there is no time to call
        with self._lock:
            try:
                self._call_time(t, rnd, "clock")
            except TournamentConflict:
                pass  # someone else called it (or changed the tournament) first: read what they wrote
            self._clocked.discard(tournament_id)
            return fold(tournament_id, self.log.read(tournament_id))

    def sweep_clocks(self) -> int:
        """Call time in every tournament seen with a running clock whose deadline has passed (the server's sweep);
        -> how many rounds had their time called."""
        called = 0
        for tournament_id in sorted(self._clocked):
            before = fold(tournament_id, self.log.read(tournament_id))
            after = self._fold_due(tournament_id)
            called += after.seq != before.seq
        return called

    def call_time(self, tournament_id: str, round_number: int) -> dict[str, Any]:
        """The organiser calls time on a round (this module's docstring). -> the round's ``time_called``."""
        with self._lock:
            t = self._fold_due(tournament_id)
            if not 1 <= round_number <= len(t.played):
                raise TournamentInvalid(f"there is no round {round_number} (rounds started: {len(t.played)})")
            rnd = t.played[round_number - 1]
            if rnd.time_called is not None:
                by = "the clock" if rnd.time_called["by"] == "clock" else "the organiser"
                raise TournamentRefused(f"time was already called on round {round_number} (by {by} at "
                                        f"{rnd.time_called['at']})", "time_already_called")
            if round_number < len(t.played):
                raise TournamentRefused(f"round {round_number} is over: round {len(t.played)} has started",
                                        "round_over")
            if all(self._table_result(round_number, tb).placings is not None for tb in rnd.tables):
                raise TournamentRefused(f"every table of round {round_number} has its result: there is no game to "
                                        "call time on", "round_over")
            self._call_time(t, rnd, "organiser")
            called = fold(tournament_id, self.log.read(tournament_id)).played[round_number - 1].time_called
            assert called is not None
            return called

    def _call_time(self, t: Tournament, rnd: Round, by: str) -> None:
        """End every running game of ``rnd`` by ``adjudicate`` with reason ``time`` (the games first), then log
        ``time_called``. A game its scorekeeper ended first keeps its result."""
        ended = []
        note = TIME_NOTE.format(who="clock" if by == "clock" else "organiser", round=rnd.number)
        for table in rnd.tables:
            if table.forfeit is not None or table.corrections:
                continue
            try:
                self.games.act(table.game_id, Adjudicate(reason="time", note=note))
            except (GameNotFound, RuleError):
                continue  # over already (its result stands), never stored, or not started
            ended.append(table.table)
        data = {"round": rnd.number, "at": self.now_text(), "by": by, "tables": ended}
        self.log.append(t.id, [("time_called", data)], t.seq)

    def clock_json(self, rnd: Round) -> dict[str, Any]:
        """A round's clock as the tournament JSON shows it."""
        return {"started_at": rnd.started_at, "duration": rnd.duration, "deadline": rnd.deadline,
                "time_left": None if rnd.duration is None else 0 if rnd.time_called is not None else
                day.time_left(rnd.started_at, rnd.duration, self.clock()),
                "time_called": rnd.time_called}

    # -- the cut ----------------------------------------------------------------------------------------

    def start_cut(self, tournament_id: str, size: int, new_tokens: NewTokens,
                  choices: Mapping[str, str] | None = None, duration: int | None = None) -> Any:
        """Seed the cut from the standings (dropped entrants left out) and start its first bracket round."""
        with self._lock:
            t = self._fold_due(tournament_id)
            if t.cut is not None:
                raise TournamentRefused(f"the cut is made already (top {t.cut[0]})", "cut_made")
            if size not in day.CUT_SIZES:
                raise TournamentInvalid(f"a cut is of the top {', '.join(map(str, day.CUT_SIZES))}, not {size}",
                                        "invalid_cut")
            if t.seats != 2 and t.entry != "teams":
                raise TournamentRefused(f"a cut is a bracket of two-sided games; this tournament seats {t.seats} "
                                        "players a table", "cut_needs_two_sides")
            swiss = len(t.swiss_rounds)
            results = self.results(t)
            if swiss < t.rounds or any(r.status == "playing" for r in results):
                raise TournamentRefused(f"the cut comes after the Swiss rounds: {swiss} of {t.rounds} started"
                                        + (", and a table is still playing" if swiss == t.rounds else ""),
                                        "swiss_unfinished")
            field = [s.player for s in standings(t, results) if not s.dropped]
            if size > len(field):
                kind = "teams" if t.entry == "teams" else "players"
                raise TournamentRefused(f"a cut to the top {size} needs {size} {kind}; the field has {len(field)}"
                                        " (dropped entrants are out)", "cut_larger_than_field")
            t.cut = (size, tuple(field[:size]))
            cut = ("cut_started", {"size": size, "seeds": list(t.cut[1])})
            return self._start_cut_games(t, [cut], choices or {}, new_tokens, duration)

    def next_cut_games(self, tournament_id: str, new_tokens: NewTokens, choices: Mapping[str, str] | None = None,
                       duration: int | None = None) -> Any:
        """Start the bracket's next games: a replay of each drawn match (``cut_draws: "replay"``), else the next
        bracket round once every match of this one is decided."""
        with self._lock:
            t = self._fold_due(tournament_id)
            if t.cut is None:
                raise TournamentRefused("there is no cut yet: make it (POST .../cut) after the Swiss rounds",
                                        "no_cut")
            return self._start_cut_games(t, [], choices or {}, new_tokens, duration)

    def _start_cut_games(self, t: Tournament, first: list[tuple[str, dict[str, Any]]], choices: Mapping[str, str],
                         new_tokens: NewTokens, duration: int | None) -> Any:
        rounds = self.bracket(t, self.results(t))
        current = next((matches for matches in rounds if any(m.status != "decided" for m in matches)), None)
        if current is None:
            raise TournamentRefused(f"the cut is over: {day.champion(rounds)} won the final", "cut_over")
        playing = [m for m in current if m.status == "playing"]
        if playing:
            raise TournamentRefused(f"bracket round {playing[0].bracket_round} match {playing[0].match} is still "
                                    "being played", "cut_round_unfinished")
        starting = [m for m in current if m.status in ("ready", "replay")]
        higher = {str(m.higher) for m in starting}
        for who, choice in choices.items():
            if who not in higher:
                raise TournamentInvalid(f"{who!r} chooses nothing now: the higher seeds of the games to start are "
                                        f"{', '.join(sorted(higher))}", "invalid_choice")
            if choice not in day.CHOICES:
                raise TournamentInvalid(f"the higher seed chooses to go first or second, not {choice!r}",
                                        "invalid_choice")
        clock = self.clock_fields(duration)
        number = len(t.played) + 1
        started = []
        for i, match in enumerate(starting, 1):
            assert match.higher is not None and match.lower is not None
            choice = choices.get(match.higher, "first")
            players = [match.higher, match.lower] if choice == "first" else [match.lower, match.higher]
            started.append((match, choice, self._start_table(t, number, i, players, new_tokens)))
        data = {"round": number, "stage": "cut", "bracket_round": current[0].bracket_round,
                "tables": [{"table": s.table, "seats": s.seats, "game_id": s.game_id, "match": m.match,
                            "choice": c} for m, c, s in started],
                "byes": [], "rematches": 0, **clock}
        self.log.append(t.id, [*first, ("round_started", data)], t.seq)
        if duration is not None:
            self._clocked.add(t.id)
        return self._started_round(number, [s for _, _, s in started], [])

    def bracket(self, t: Tournament, results: Sequence[TableResult]) -> list[list[day.Match]]:
        """The cut's bracket from its seeds and its rounds' results ([]: no cut)."""
        if t.cut is None:
            return []
        by_table = {(r.round, r.table): r for r in results}
        games: dict[tuple[int, int], list[day.CutGame]] = {}
        seats_of: dict[tuple[int, int], dict[str, str]] = {}
        for rnd in t.played:
            if rnd.stage != "cut" or rnd.bracket_round is None:
                continue
            for table in rnd.tables:
                result = by_table[(rnd.number, table.table)]
                placings = None if result.placings is None else tuple(
                    tuple(dict.fromkeys(table.seats[s] for s in group)) for group in result.placings)
                seats_of[(rnd.number, table.table)] = table.seats
                games.setdefault((rnd.bracket_round, int(table.match or 0)), []).append(
                    day.CutGame(rnd.number, table.table, table.game_id, table.choice or "first", placings,
                                result.status))

        def time_rule(game: day.CutGame) -> str | None:
            try:
                _, state = self.games.state(game.game_id)
                ruling = self.games.system_of(game.game_id).on_time(state)
            except (GameNotFound, RuleError, AttributeError):
                return None
            return seats_of[(game.round, game.table)][ruling.placings[0][0]] if len(ruling.placings) > 1 else None

        return day.bracket(t.cut[0], t.cut[1], games, t.cut_draws, time_rule)

    def bracket_json(self, t: Tournament, results: Sequence[TableResult]) -> dict[str, Any] | None:
        rounds = self.bracket(t, results)
        if t.cut is None:
            return None
        return {"size": t.cut[0], "cut_draws": t.cut_draws,
                "seeds": [{"seed": i, "entrant": who} for i, who in enumerate(t.cut[1], 1)],
                "rounds": [[m.as_json() for m in matches] for matches in rounds], "champion": day.champion(rounds)}

    # -- history and exports --------------------------------------------------------------------------

    def history(self, tournament_id: str) -> list[dict[str, Any]]:
        """The tournament's log as it happened (the organiser's token hash left out): every result entered and
        every correction, each with its reason, in order."""
        self._fold_due(tournament_id)
        out = []
        for event in self.log.read(tournament_id):
            data = {k: v for k, v in event.data.items() if k != "organiser_hash"}
            out.append({"seq": event.seq, "type": event.type, "recorded_at": event.recorded_at, "data": data})
        return out

    def export(self, tournament_id: str, what: str, fmt: str) -> str:
        """Pairings, results or standings as CSV or JSON (``day.EXPORTS``, ``day.EXPORT_FORMATS``)."""
        if what not in day.EXPORTS:
            raise TournamentInvalid(f"export what: one of {', '.join(day.EXPORTS)}, not {what!r}", "invalid_export")
        if fmt not in day.EXPORT_FORMATS:
            raise TournamentInvalid(f"export format: one of {', '.join(day.EXPORT_FORMATS)}, not {fmt!r}",
                                    "invalid_export")
        t = self._fold_due(tournament_id)
        results = self.results(t)
        rows = (self._pairing_rows(t) if what == "pairings" else
                self._result_rows(t, results) if what == "results" else self._standing_rows(t, results))
        if fmt == "json":
            return json.dumps({"tournament": t.id, "name": t.name, "what": what, "rows": rows}, indent=2)
        out = io.StringIO()
        columns = list(rows[0]) if rows else list(day.EXPORT_COLUMNS[what])
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
        return out.getvalue()

    @staticmethod
    def _pairing_rows(t: Tournament) -> list[dict[str, Any]]:
        rows = []
        for rnd in t.played:
            for table in rnd.tables:
                for seat, who in table.seats.items():
                    rows.append({"round": rnd.number, "stage": rnd.stage, "table": table.table, "seat": seat,
                                 "entrant": who, "name": t.entrants[who].name, "game_id": table.game_id})
            for bye in rnd.byes:
                rows.append({"round": rnd.number, "stage": rnd.stage, "table": None, "seat": "bye", "entrant": bye,
                             "name": t.entrants[bye].name, "game_id": None})
        return rows

    @staticmethod
    def _result_rows(t: Tournament, results: Sequence[TableResult]) -> list[dict[str, Any]]:
        stage = {rnd.number: rnd.stage for rnd in t.played}
        rows = []
        for r in results:
            entrants = None if r.placings is None else [[r.seats[s] for s in group] for group in r.placings]
            last = r.corrections[-1].reason if r.corrections else None
            rows.append({"round": r.round, "stage": stage[r.round], "table": r.table, "game_id": r.game_id,
                         "status": r.status, "winner": r.winner,
                         "placings": [list(g) for g in r.placings] if r.placings is not None else None,
                         "finishing_order": entrants, "scores": dict(r.scores), "correction_reason": last})
        return rows

    @staticmethod
    def _standing_rows(t: Tournament, results: Sequence[TableResult]) -> list[dict[str, Any]]:
        rows = []
        for s in standings(t, results):
            rows.append({"rank": s.rank, "entrant": s.player, "name": s.name, "match_points": s.match_points,
                         "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes, "dropped": s.dropped,
                         **{tb["name"]: tb["value"] for tb in s.tiebreaks}})
        return rows


def _cell(value: Any) -> Any:
    """A CSV cell: placings as ``a > b = c``, scores as ``p1=3 p2=1``, nothing as empty."""
    if value is None:
        return ""
    if isinstance(value, list):
        return day.placings_text(value)
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items())
    return value
