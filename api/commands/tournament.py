"""``warlog tournament``: run a Swiss tournament from the console (the organiser's side); see ``DESCRIPTION``.

Local access to the database is the organiser's: no token is asked. While ``warlog serve`` holds the file, the
same code runs through it (api/remote.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from api.database import DB_HELP

DESCRIPTION = """\
Run a Swiss tournament from the console (the organiser's side):

  warlog tournament create --name NAME --rounds N      prints its id and the organiser's HTTP token
  warlog tournament register TOURNAMENT PLAYER --army ARMY
  warlog tournament round TOURNAMENT                   pairs and starts the next round; prints each game's tokens
  warlog tournament result TOURNAMENT ROUND TABLE --winner p1|p2|draw     a forfeit
  warlog tournament standings TOURNAMENT               also: show TOURNAMENT, list

No token is asked here: whoever may use the database organises. While warlog serve runs on the same database,
these commands work through it. Over HTTP the same operations are under /tournaments (docs/api.md), with the
organiser's token."""
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


def _army(text: str) -> Any:
    """A faction name, or a JSON list of card ids, or a comma-separated list of card ids."""
    text = text.strip()
    if text.startswith("["):
        return json.loads(text)
    return [c.strip() for c in text.split(",")] if "," in text else text


def _create(args: argparse.Namespace) -> int:
    variant = json.loads(args.variant) if args.variant else {}
    tokens, hashes = _tokens(["organiser"])
    with _tournaments(args.db) as service:
        tid = service.create(args.name, args.system, "swiss", args.rounds, variant, hashes["organiser"])
    print(f"tournament {tid} created ({args.rounds} Swiss rounds of {args.system})")
    print(f"organiser token (for the HTTP API; shown once): {tokens['organiser']}")
    return 0


def _register(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.register(args.tournament, args.player, args.name or args.player, _army(args.army))
    print(f"registered {entrant.id} ({entrant.name})")
    return 0


def _round(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        started = service.start_round(args.tournament, _tokens)
    if args.json:
        print(json.dumps(asdict(started), indent=2))
        return 0
    print(f"round {started.round}")
    for t in started.tables:
        print(f"  table {t.table}: {t.p1} (p1) vs {t.p2} (p2)  game {t.game_id}")
        print(f"    tokens: scorekeeper {t.tokens['scorekeeper']}  p1 {t.tokens['p1']}  p2 {t.tokens['p2']}")
    if started.bye:
        print(f"  bye: {started.bye}")
    return 0


def _result(args: argparse.Namespace) -> int:
    kills = {"p1": args.kills[0], "p2": args.kills[1]} if args.kills else {}
    with _tournaments(args.db) as service:
        result = service.enter_result(args.tournament, args.round, args.table, args.winner, kills)
    print(f"round {result.round} table {result.table}: {result.winner} ({result.status})")
    return 0


def _standings(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        rows = service.standings(args.tournament)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return 0
    print(f"{'#':>3}  {'player':<20} {'pts':>4} {'W-D-L':>7} {'bye':>3} {'OMW%':>6} {'kills±':>7}")
    for r in rows:
        wdl = f"{r.wins}-{r.draws}-{r.losses}"
        print(f"{r.rank:>3}  {r.name[:20]:<20} {r.match_points:>4} {wdl:>7} {r.byes:>3} "
              f"{100 * r.opponents_match_win:>6.1f} {r.kill_difference:>+7}")
    return 0


def _show(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        t = service.get(args.tournament)
        results = service.results(t)
    if args.json:
        print(json.dumps({"id": t.id, "name": t.name, "system": t.system, "rounds": t.rounds,
                          "players": [asdict(e) for e in t.entrants.values()],
                          "tables": [asdict(r) for r in results]}, indent=2))
        return 0
    print(f"{t.name} ({t.id}): {t.system}, Swiss, {len(t.played)}/{t.rounds} rounds, {len(t.entrants)} players")
    for r in results:
        outcome = r.winner if r.status != "playing" else "playing"
        print(f"  round {r.round} table {r.table}: {r.p1} vs {r.p2}  game {r.game_id}  {outcome}"
              f"{' (forfeit)' if r.status == 'forfeit' else ''}")
    for rnd in t.played:
        if rnd.bye:
            print(f"  round {rnd.number} bye: {rnd.bye}")
    return 0


def _list(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        for t in service.list(1000):
            print(f"{t.id}  {t.name}  {t.system}  {len(t.played)}/{t.rounds} rounds  {len(t.entrants)} players")
    return 0


def _run(handler: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        from engine.errors import SetupError
        from replay.tournaments.service import TournamentError

        try:
            return int(handler(args))
        except TournamentError as exc:
            print(f"warlog tournament: {exc.code}: {exc.message}", file=sys.stderr)
            return 1
        except (SetupError, json.JSONDecodeError) as exc:
            print(f"warlog tournament: {exc}", file=sys.stderr)
            return 2

    return run


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "tournament", help="run a Swiss tournament", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")

    def add(name: str, help_text: str, handler: Any) -> argparse.ArgumentParser:
        p = commands.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--db", default=None, help=DB_HELP)
        p.set_defaults(func=_run(handler), through_server=True, creates_db=name == "create")
        return p

    p = add("create", "create a tournament; prints its id and the organiser's token", _create)
    p.add_argument("--name", required=True, help="the tournament's name, e.g. \"Spring Open\"")
    p.add_argument("--rounds", type=int, required=True, help="number of Swiss rounds")
    p.add_argument("--system", default="lords-of-war", help="game system (default lords-of-war)")
    p.add_argument("--variant", default=None, help='the games\' variant as JSON, e.g. \'{"mode": "table"}\'')

    p = add("register", "register a player with an army (before round 1)", _register)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament (letters, digits, _ . : -)")
    p.add_argument("--army", required=True, help="a faction (orcs, dwarves, ...) or card ids (JSON list or a,b,c)")
    p.add_argument("--name", default=None, help="the player's name as shown (default: the id)")

    p = add("round", "pair and start the next round; prints the tables and each game's tokens", _round)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("result", "enter a forfeit result for a table whose game was not played out", _result)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("round", type=int, metavar="ROUND", help="the round's number (1, 2, ...)")
    p.add_argument("table", type=int, metavar="TABLE", help="the table's number in that round")
    p.add_argument("--winner", required=True, choices=["p1", "p2", "draw"], help="the seat that wins, or draw")
    p.add_argument("--kills", type=int, nargs=2, metavar=("P1", "P2"), help="card kills to count (default 0 0)")

    p = add("standings", "standings with tiebreaks", _standings)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("show", "players, tables and results", _show)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    add("list", "every tournament in the database", _list)
