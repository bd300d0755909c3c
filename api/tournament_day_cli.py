"""``warlog tournament report | correct | clock | cut | export``: the organiser's day (issue 31 items 3-6) from the
console, as over HTTP (docs/api.md, "Tournaments"); beside a running ``warlog serve`` they work through it, as every
tournament command does (api/remote.py). Also what ``warlog tournament`` (api/commands/tournament.py, which adds
these commands) shares with them: the tournaments of a database, a table's result as options, a started round."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api.database import CliError
from api.options import MAX_ROUNDS, MAX_SCORE, MAX_TABLES, whole
from replay.tournaments.day import CUT_SIZES, EXPORT_FORMATS, EXPORTS, MAX_DURATION

TID_HELP = "the tournament's id, as create printed it (t-...)"
JSON_HELP = "print JSON instead of text"


@contextmanager
def _tournaments(db: str) -> Iterator[Any]:
    """The tournaments of ``db``: the file, or the running ``warlog serve`` that holds it (api/remote.py)."""
    from api.remote import tournament_service

    with tournament_service(db) as service:
        yield service


def _tokens(roles: Any) -> tuple[dict[str, str], dict[str, str]]:
    from api.auth import new_tokens

    return new_tokens(roles)


# -- a table's result, as result, report and correct take it ----------------------------------------------


def result_options(p: argparse.ArgumentParser) -> None:
    """The table and the result, as ``result``, ``report`` and ``correct`` take them."""
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("round", type=whole(1, MAX_ROUNDS), metavar="ROUND", help="the round's number (1, 2, ...)")
    p.add_argument("table", type=whole(1, MAX_TABLES), metavar="TABLE", help="the table's number in that round")
    p.add_argument("--winner", metavar="SEAT", help="a two-seat table: the seat that wins (p1, p2), or draw")
    p.add_argument("--placings", nargs="+", metavar="SEATS",
                   help="the table's seats in finishing order, seats that tie joined by commas: p2 p1,p3 p4")
    p.add_argument("--winning-team", metavar="TEAM", help="a team tournament: the team that wins, or draw")
    p.add_argument("--scores", "--kills", type=whole(0, MAX_SCORE), nargs="+", metavar="N", dest="scores",
                   help="the scores to count for the tie-break, one per seat in seat order (default 0 each)")


def result_given(args: argparse.Namespace, service: Any) -> tuple[Any, dict[str, int]]:
    """The placings and scores of ``result``'s (and ``report``'s, ``correct``'s) options, for the table named."""
    from replay.tournaments.model import placings_of_winner, table_seats

    if sum(x is not None for x in (args.winner, args.placings, args.winning_team)) != 1:
        raise CliError("give one of --winner SEAT|draw (a two-seat table), --placings and --winning-team TEAM|draw "
                       "(a team tournament)", status=2)
    t = service.get(args.tournament)
    seats = table_seats(t, args.round, args.table)
    if args.scores is not None and len(args.scores) != len(seats):
        raise CliError(f"--scores takes one number per seat ({', '.join(seats)}), in seat order", status=2)
    scores = dict(zip(seats, args.scores, strict=True)) if args.scores else {}
    if args.winning_team is not None:
        if t.entry != "teams":
            raise CliError("--winning-team is for a team tournament; this one's entrants are players", status=2)
        placings = service.team_placings(t, args.round, args.table, args.winning_team)
    elif args.winner is not None:
        placings = placings_of_winner(args.winner, seats)
    else:
        placings = tuple(tuple(s.strip() for s in group.split(",")) for group in args.placings)
    return placings, scores


def outcome_text(result: Any) -> str:
    """A table's result in a few characters: the winning seat (or draw) of two, the placings of more."""
    if result.placings is None:
        return "playing"
    if len(result.seats) == 2:
        return str(result.winner)
    return " > ".join(",".join(group) for group in result.placings)


def _seated(seats: dict[str, str]) -> str:
    return ", ".join(f"{who} ({seat})" for seat, who in seats.items()) if len(seats) > 2 else \
        " vs ".join(f"{who} ({seat})" for seat, who in seats.items())


def print_started(started: Any, as_json: bool) -> int:
    """A started round (or the cut's games): its tables and each game's tokens."""
    if as_json:
        print(json.dumps(started.as_json(), indent=2))
        return 0
    print(f"round {started.round}")
    for t in started.tables:
        print(f"  table {t.table}: {_seated(t.seats)}  game {t.game_id}")
        print("    tokens: " + "  ".join(f"{role} {token}" for role, token in t.tokens.items()))
    for bye in started.byes:
        print(f"  bye: {bye}")
    return 0


def enter_result(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        placings, scores = result_given(args, service)
        result = service.enter_result(args.tournament, args.round, args.table, placings, scores)
    print(f"round {result.round} table {result.table}: {outcome_text(result)} ({result.status})")
    return 0



# -- the day's commands -------------------------------------------------------------------------------------




def _correct(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        placings, scores = result_given(args, service)
        result = service.correct_result(args.tournament, args.round, args.table, placings, scores, args.reason)
    before = result.original or {}
    print(f"round {result.round} table {result.table}: {outcome_text(result)} (corrected; was "
          f"{before.get('winner') or before.get('placings')}): {result.corrections[-1].reason}")
    return 0


def _clock(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        if args.call:
            t = service.get(args.tournament)
            number = args.round or len(t.played)
            called = service.call_time(args.tournament, number)
            print(f"time called on round {number} at {called['at']}: "
                  + (f"tables {', '.join(map(str, called['tables']))} ended by the time rule" if called["tables"]
                     else "no game was still running"))
            return 0
        t = service.get(args.tournament)
        rounds = [r for r in t.played if args.round in (None, r.number)]
        clocks = [(r.number, service.clock_json(r)) for r in rounds]
    if args.round is not None and not rounds:
        raise CliError(f"there is no round {args.round} (rounds started: {len(t.played)})", status=1)
    if args.json:
        print(json.dumps([{"round": n, **c} for n, c in clocks], indent=2))
        return 0
    for number, c in clocks:
        if c["duration"] is None:
            line = "no clock"
        else:
            left = c["time_left"]
            line = f"{c['duration']} min, deadline {c['deadline']}, {left // 60}:{left % 60:02d} left"
        called = c["time_called"]
        if called is not None:
            line += f"; time called by the {called['by']} at {called['at']}"
        print(f"round {number}: started {c['started_at'] or '?'}, {line}")
    return 0


def _cut(args: argparse.Namespace) -> int:
    choices = {seed: "second" for seed in args.second or []}
    with _tournaments(args.db) as service:
        if args.size is not None:
            started = service.start_cut(args.tournament, args.size, _tokens, choices, args.duration)
        elif args.next:
            started = service.next_cut_games(args.tournament, _tokens, choices, args.duration)
        else:
            if args.second or args.duration:
                raise CliError("--second and --duration go with --size or --next (starting games)", status=2)
            t = service.get(args.tournament)
            bracket = service.bracket_json(t, service.results(t))
            if args.json:
                print(json.dumps({"bracket": bracket}, indent=2))
            else:
                _print_bracket(bracket)
            return 0
    return print_started(started, args.json)


def _print_bracket(bracket: dict[str, Any] | None) -> None:
    if bracket is None:
        print("no cut yet (warlog tournament cut TOURNAMENT --size 2|4|8 after the Swiss rounds)")
        return
    print(f"top {bracket['size']}, drawn games: {bracket['cut_draws']}")
    for matches in bracket["rounds"]:
        for m in matches:
            who = f"{m['higher'] or '?'} ({m['higher_seed'] or '-'}) v {m['lower'] or '?'} ({m['lower_seed'] or '-'})"
            won = f", {m['winner']} won ({m['decided_by']})" if m["winner"] else ""
            print(f"  bracket round {m['bracket_round']} match {m['match']}: {who}: {m['status']}{won}")
    if bracket["champion"]:
        print(f"champion: {bracket['champion']}")


def _export(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        text = service.export(args.tournament, args.what, args.format)
    if args.out is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.what} ({args.format}) to {args.out}")
    return 0


def add_day_commands(add: Callable[[str, str, Any], argparse.ArgumentParser]) -> None:
    """The day's commands, added to ``warlog tournament`` by its ``register``."""
    p = add("report", "enter a table's result reported on paper (its game is ended with it)", enter_result)
    result_options(p)

    p = add("correct", "correct a table's result, with a reason (its game is corrected with it)", _correct)
    result_options(p)
    p.add_argument("--reason", required=True, help="why the result changes (kept in the tournament's history)")

    p = add("clock", "the rounds' clocks; --call calls time on a round", _clock)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("round", nargs="?", type=whole(1, MAX_ROUNDS), default=None, metavar="ROUND",
                   help="one round (default: every round; with --call, the latest)")
    p.add_argument("--call", action="store_true",
                   help="call time: every game of the round still running is ended by its system's time rule")
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("cut", "cut to a final after the Swiss rounds (--size), start the next games (--next), or show the "
            "bracket", _cut)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--size", type=whole(2, 8), choices=CUT_SIZES, default=None, metavar="2|4|8",
                       help="the top 2, 4 or 8 of the standings")
    which.add_argument("--next", action="store_true",
                       help="start the bracket's next games (replays of drawn matches, or the next bracket round)")
    p.add_argument("--second", nargs="+", metavar="SEED", help="higher seeds (entrant ids) who choose to go second "
                   "(the others go first)")
    p.add_argument("--duration", type=whole(1, MAX_DURATION), default=None, metavar="MINUTES",
                   help="minutes on the clock of these games")
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("export", "pairings, results or standings as CSV or JSON", _export)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--what", choices=EXPORTS, default="standings", help="what to export (default standings)")
    p.add_argument("--format", choices=EXPORT_FORMATS, default="csv", help="csv (default) or json")
    p.add_argument("--out", default=None, metavar="FILE", help="write to FILE instead of the console")
