"""``warlog tournament report | correct | clock | cut | export``: the organiser's day (issue 31 items 3-6) from the
console, as over HTTP (docs/api.md, "Tournaments"); beside a running ``warlog serve`` they work through it, as every
tournament command does (api/remote.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from api.commands.tournament import (
    JSON_HELP,
    TID_HELP,
    _outcome,
    _result,
    _tokens,
    _tournaments,
    print_started,
    result_given,
    result_options,
)
from api.database import CliError
from api.options import MAX_ROUNDS, whole
from replay.tournaments.day import CUT_SIZES, EXPORT_FORMATS, EXPORTS, MAX_DURATION


def _correct(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        placings, scores = result_given(args, service)
        result = service.correct_result(args.tournament, args.round, args.table, placings, scores, args.reason)
    before = result.original or {}
    print(f"round {result.round} table {result.table}: {_outcome(result)} (corrected; was "
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
    p = add("report", "enter a table's result reported on paper (its game is ended with it)", _result)
    result_options(p)

    p = add("correct", "correct a table's result, with a reason (its game stays as it ended)", _correct)
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
    which.add_argument("--size", type=int, choices=CUT_SIZES, default=None, help="the top 2, 4 or 8 of the standings")
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
