"""``warlog tournament``: run a tournament (Swiss pairs, or pods of more seats) from the console (the organiser's
side); see ``DESCRIPTION``.

Local access to the database is the organiser's: no token is asked. While ``warlog serve`` holds the file, the
same code runs through it (api/remote.py).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict
from typing import Any

from api.database import DB_HELP, CliError
from api.options import MAX_ROUNDS, Parser, whole
from api.tournament_day_cli import (
    JSON_HELP,
    TID_HELP,
    _tokens,
    _tournaments,
    add_day_commands,
    enter_result,
    outcome_text,
    print_started,
    result_options,
)
from engine.system import MAX_SEATS, MIN_SEATS
from replay.tournaments.day import CUT_DRAWS, DEFAULT_TIEBREAKS, MAX_DURATION, TIEBREAKS

DESCRIPTION = """\
Run a tournament from the console (the organiser's side):

  warlog tournament create --name NAME --rounds N [--system S] [--seats N] [--entrants teams] [system options]
                                                       prints its id and the organiser's HTTP token
  warlog tournament register TOURNAMENT PLAYER [--army ARMY]
  warlog tournament register-team TOURNAMENT TEAM [--name N] --member NAME ARMY --member NAME ARMY
                                                       a team tournament (--entrants teams): one entrant a team
  warlog tournament unregister TOURNAMENT PLAYER       before round 1
  warlog tournament checkin TOURNAMENT PLAYER          before round 1 (a tournament created with --check-in)
  warlog tournament late TOURNAMENT PLAYER --missed loss|bye [--army ARMY]   into a running tournament
  warlog tournament drop TOURNAMENT PLAYER [--reason R]                      paired no more, results kept
  warlog tournament round TOURNAMENT                   seats the next round; prints each game's tokens
  warlog tournament swap TOURNAMENT ROUND PLAYER PLAYER --reason R   before their tables' games start
  warlog tournament pair TOURNAMENT ROUND --reason R   pairs the current round again, before its games start
  warlog tournament result TOURNAMENT ROUND TABLE --winner SEAT|draw      a forfeit (two seats a table)
  warlog tournament result TOURNAMENT ROUND TABLE --placings p2 p1,p3 p4  a forfeit (any table: ties with commas)
  warlog tournament result TOURNAMENT ROUND TABLE --winning-team TEAM|draw a forfeit (a team tournament)
  warlog tournament standings TOURNAMENT               also: show TOURNAMENT, list
  warlog tournament decks TOURNAMENT                   the registered deck lists (create --catalogue ID
                                                       --decks-required --points-limit N set the format)
  warlog tournament report TOURNAMENT ROUND TABLE --winner SEAT|draw      a result reported on paper (as result)
  warlog tournament correct TOURNAMENT ROUND TABLE --winner SEAT --reason TEXT   a wrong result corrected
  warlog tournament round TOURNAMENT --duration MIN    a round with a clock; clock TOURNAMENT [ROUND] [--call]
  warlog tournament cut TOURNAMENT --size 2|4|8 [--second SEED]           then cut --next; cut alone: the bracket
  warlog tournament export TOURNAMENT --what pairings|results|standings [--format csv|json] [--out FILE]

Two seats a table: Swiss pairs; more (--seats): pods. The system's options (below, per system) set its variant
(create) and what a player brings (register). No token is asked here: whoever may use the database organises.
While warlog serve runs on the same database, these commands work through it. Over HTTP the same operations are
under /tournaments (docs/api.md), with the organiser's token."""


def _system_options(args: argparse.Namespace, system: str, command: str) -> dict[str, Any]:
    """The options given for ``system``'s part of ``command``; a usage error for another system's."""
    from api.systems import get_plugin, plugins

    for plugin in plugins():
        if plugin.name != system and plugin.cli.options(args, command):
            raise CliError(f"options of {plugin.name} were given, but the tournament's system is {system}", status=2)
    try:
        return get_plugin(system).cli.options(args, command)
    except KeyError:
        return {}


_VARIANT_JSON = re.compile(r'"variant": (\{[^{}]*\})')


def _on_the_command_line(message: str, system: str) -> str:
    """``message`` with the options that give each variant it names as JSON (``"variant": {"teams": true}``, as
    the HTTP API takes it) after it: ``(on the command line: --team-rules)``."""
    from api.plugin import TOURNAMENT_CREATE, options_giving
    from api.systems import find_plugin

    plugin = find_plugin(system)
    if plugin is None:
        return message

    def spelled(match: re.Match[str]) -> str:
        try:
            options = options_giving(plugin.cli, TOURNAMENT_CREATE, {"variant": json.loads(match.group(1))})
        except ValueError:
            options = None
        return f"{match.group(0)} (on the command line: {' '.join(options)})" if options else match.group(0)

    return _VARIANT_JSON.sub(spelled, message)


def _create(args: argparse.Namespace) -> int:
    variant = json.loads(args.variant) if args.variant else {}
    if not isinstance(variant, dict):
        raise CliError("--variant must be a JSON object", status=2)
    variant.update(_system_options(args, args.system, "tournament create").get("variant", {}))
    from replay.tournaments.model import TournamentInvalid
    from replay.tournaments.service import TournamentService

    try:  # before the database is opened: a choice the system refuses creates nothing, and is a usage error
        if args.catalogue is None:  # (a pinned catalogue is read from the database: create judges on it)
            TournamentService.judge(args.system, "swiss", variant, args.seats, args.entrants)
    except TournamentInvalid as error:
        raise CliError(f"{error.code}: {_on_the_command_line(error.message, args.system)}", status=2) from None
    tokens, hashes = _tokens(["organiser"])
    with _tournaments(args.db) as service:
        tid = service.create(args.name, args.system, "swiss", args.rounds, variant, hashes["organiser"],
                             seats=args.seats, entrants=args.entrants, tiebreaks=args.tiebreaks,
                             cut_draws=args.cut_draws, seeding=args.seeding,
                             check_in=args.check_in, catalogue=args.catalogue,
                             decks_required=args.decks_required, points_limit=args.points_limit)
        seats = service.get(tid).seats
    kind = ("Swiss rounds of teams" if args.entrants == "teams" else
            "Swiss rounds" if seats == 2 else f"rounds of {seats}-seat pods")
    print(f"tournament {tid} created ({args.rounds} {kind} of {args.system})")
    print(f"organiser token (for the HTTP API; shown once): {tokens['organiser']}")
    return 0


def _army(args: argparse.Namespace, service: Any) -> Any:
    """What the player brings, from the tournament's system's options (``register`` and ``late``)."""
    fields = _system_options(args, service.get(args.tournament).system, "tournament register")
    army = fields.pop("army", None)
    if fields:
        raise CliError(f"a tournament keeps only a player's army, not {', '.join(sorted(fields))}", status=2)
    return army


def _register(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.register(args.tournament, args.player, args.name or args.player, _army(args, service))
    print(f"registered {entrant.id} ({entrant.name})")
    return 0


def _register_team(args: argparse.Namespace) -> int:
    members = []
    for name, army in args.member or []:
        if army.startswith(("[", "{")):  # an explicit list, as JSON
            army = json.loads(army)
        members.append((name, army))
    with _tournaments(args.db) as service:
        team = service.register_team(args.tournament, args.team, args.name or args.team, members)
    print(f"registered team {team.id} ({team.name}): {', '.join(m.name for m in team.members)}")
    return 0


def _round(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        started = service.start_round(args.tournament, _tokens, args.duration)
    return print_started(started, args.json)


def _standings(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        rows = service.standings(args.tournament)
    if args.json:
        print(json.dumps([r.as_json() for r in rows], indent=2))
        return 0
    teams = any(r.members is not None for r in rows)
    print(f"{'#':>3}  {'team' if teams else 'player':<20} {'pts':>5} {'W-D-L':>7} {'bye':>3} {'OMW%':>6} "
          f"{'score±':>7}{'  members' if teams else ''}")
    for r in rows:
        wdl = f"{r.wins}-{r.draws}-{r.losses}"
        print(f"{r.rank:>3}  {r.name[:20]:<20} {r.match_points:>5g} {wdl:>7} {r.byes:>3} "
              f"{100 * r.opponents_match_win:>6.1f} {r.score_difference:>+7g}"
              f"{'  ' + ', '.join(r.members) if r.members else ''}")
    if rows:  # the tournament's tie-breaks (issue 31): their values are in --json
        print("tie-breaks, in order: " + ", ".join(tb["name"] for tb in rows[0].tiebreaks) + " (values: --json)")
    return 0


def _show(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        t = service.get(args.tournament)
        results = service.results(t)
    if args.json:
        print(json.dumps({"id": t.id, "name": t.name, "system": t.system, "rounds": t.rounds, "seats": t.seats,
                          "variant": t.variant,
                          "entrants": t.entry, "players": [asdict(e) for e in t.entrants.values()],
                          "tables": [r.as_json() for r in results]}, indent=2))
        return 0
    kind = "Swiss of teams" if t.entry == "teams" else "Swiss" if t.seats == 2 else f"{t.seats}-seat pods"
    print(f"{t.name} ({t.id}): {t.system}, {kind}, {len(t.played)}/{t.rounds} rounds, {len(t.entrants)} "
          f"{'teams' if t.entry == 'teams' else 'players'}")
    for e in t.entrants.values():
        if e.members:
            print(f"  team {e.id} ({e.name}): {', '.join(m.name for m in e.members)}")
    for r in results:
        names = " vs ".join(dict.fromkeys(r.seats.values()))
        print(f"  round {r.round} table {r.table}: {names}  game {r.game_id}  {outcome_text(r)}"
              f"{' (forfeit)' if r.status == 'forfeit' else ''}")
    for rnd in t.played:
        for bye in rnd.byes:
            print(f"  round {rnd.number} bye: {bye}")
    return 0


def _decks(args: argparse.Namespace) -> int:
    """The registered deck lists (issue 30): the organiser's, as every command here is."""
    from replay.tournaments.decks import deck_lists

    with _tournaments(args.db) as service:
        rows = deck_lists(service.get(args.tournament))
    if args.json:
        print(json.dumps({"decks": rows}, indent=2))
        return 0
    for row in rows:
        team = f" ({row['team']})" if "team" in row else ""
        print(f"{row['player']}  {row['name']}{team}: {row['summary']}")
    return 0


def _list(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        for t in service.list(1000):
            print(f"{t.id}  {t.name}  {t.system}  {len(t.played)}/{t.rounds} rounds  {len(t.entrants)} players")
    return 0


def _run(handler: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        from engine.errors import SetupError
        from replay.tournaments.model import TournamentError

        try:
            return int(handler(args))
        except TournamentError as exc:
            print(f"warlog tournament: {exc.code}: {exc.message}", file=sys.stderr)
            return 1
        except (SetupError, json.JSONDecodeError) as exc:
            print(f"warlog tournament: {exc}", file=sys.stderr)
            return 2

    return run


class _SystemOptionsParser(Parser):
    """The parser of a tournament command; for ``create`` and ``register`` (``system_command``) it adds each
    registered system's options, in a group of its own, when it is used (to parse or for --help): the other
    commands never import the systems' API parts."""

    system_command: str | None = None
    _systems_added = False

    def _add_systems(self) -> None:
        if self.system_command is None or self._systems_added:
            return
        self._systems_added = True
        from api.systems import DEFAULT_SYSTEM, plugin_names, plugins

        for action in self._actions:
            if "--system" in action.option_strings:
                action.default = DEFAULT_SYSTEM
                action.help = f"game system (default {DEFAULT_SYSTEM}; known: {', '.join(plugin_names())})"
        for plugin in plugins():
            group = self.add_argument_group(f"{plugin.name} options")
            plugin.cli.add_options(group, self.system_command)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._add_systems()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._add_systems()
        return super().format_help()


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "tournament", help="run a tournament (Swiss pairs or pods)", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="tournament_command", required=True, metavar="ACTION",
                                     parser_class=_SystemOptionsParser)

    def add(name: str, help_text: str, handler: Any) -> _SystemOptionsParser:
        p = commands.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--db", default=None, help=DB_HELP)
        p.set_defaults(func=_run(handler), through_server=True, creates_db=name == "create")
        return p

    p = add("create", "create a tournament; prints its id and the organiser's token", _create)
    p.add_argument("--name", required=True, help="the tournament's name, e.g. \"Spring Open\"")
    p.add_argument("--rounds", type=whole(1, MAX_ROUNDS), required=True, metavar="N", help="number of rounds")
    p.add_argument("--system", default=None, help="game system")
    p.add_argument("--seats", type=whole(MIN_SEATS, MAX_SEATS), default=None, metavar="N",
                   help="seats a table: 2 pairs players (Swiss), more seats them in pods (default: 2 when the system "
                        "allows two, else the most it allows)")
    p.add_argument("--entrants", choices=("players", "teams"), default="players",
                   help="who registers: players (default), or teams (a fixed team of seats/2 members plays every "
                        "round as one entrant; a variant of two teams, e.g. --seats 4 --team-rules)")
    p.add_argument("--variant", default=None, help='the games\' variant as JSON, e.g. \'{"mode": "table"}\' '
                   "(the system's options below set the same fields)")
    p.add_argument("--tiebreaks", nargs="+", choices=TIEBREAKS, default=None, metavar="NAME",
                   help=f"the standings' order (default: {' '.join(DEFAULT_TIEBREAKS)}); from: {', '.join(TIEBREAKS)}")
    p.add_argument("--cut-draws", choices=CUT_DRAWS, default="replay",
                   help="a drawn game of the cut: replayed (default), or decided by the system's time rule")
    p.add_argument("--seeding", choices=("random", "rating", "registration"), default="random",
                   help="round 1's order: random (from a seed drawn and recorded; default), rating (the ratings "
                        "statistic: top half against bottom half) or registration order")
    p.add_argument("--check-in", action="store_true",
                   help="only players checked in (warlog tournament checkin) are paired in round 1")
    p.add_argument("--catalogue", default=None, metavar="ID",
                   help="the format: a stored catalogue of the system (warlog catalogue list); default: the "
                        "system's built-in data")
    p.add_argument("--decks-required", action="store_true",
                   help="every player registers with a deck or army (--army)")
    p.add_argument("--points-limit", type=whole(1, 100_000), default=None, metavar="POINTS",
                   help="the most points an army may have (a system whose armies have points)")
    p.system_command = "tournament create"  # api.plugin.TOURNAMENT_CREATE: the command as typed

    p = add("register", "register a player (before round 1); the system's options say what the player brings",
            _register)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament (letters, digits, _ . : -)")
    p.add_argument("--name", default=None, help="the player's name as shown (default: the id)")
    p.system_command = "tournament register"  # api.plugin.TOURNAMENT_REGISTER

    p = add("register-team", "register a team of a team tournament (before round 1)", _register_team)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("team", help="the team's id in the tournament (letters, digits, _ . : -)")
    p.add_argument("--name", default=None, help="the team's name as shown (default: the id)")
    p.add_argument("--member", nargs=2, action="append", metavar=("NAME", "ARMY"),
                   help="a member and the army they bring (seats/2 of them, in seat order; ARMY a name, or a JSON "
                        "list of cards)")

    p = add("round", "seat and start the next round; prints the tables and each game's tokens", _round)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("--duration", type=whole(1, MAX_DURATION), default=None, metavar="MINUTES",
                   help="minutes on the round's clock: time is called when they run out")

    p = add("result", "enter a forfeit result for a table whose game was not played out", enter_result)
    result_options(p)

    p = add("standings", "standings with tiebreaks", _standings)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("show", "players, tables and results", _show)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("decks", "the registered deck lists (each player's deck or army as given, and a summary)", _decks)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    add("list", "every tournament in the database", _list)
    add_day_commands(add)
    _register_day(add)

# -- the day: attendance, swaps and re-pairings (issue 31; the same operations as docs/api.md's) ------------------


def _unregister(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.unregister(args.tournament, args.player, args.reason)
    print(f"unregistered {entrant.id} ({entrant.name})")
    return 0


def _checkin(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.check_in(args.tournament, args.player)
    print(f"checked in {entrant.id} ({entrant.name})")
    return 0


def _late(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.register_late(args.tournament, args.player, args.name or "", _army(args, service),
                                        args.missed)
    missed = entrant.joined - 1
    print(f"registered {entrant.id} ({entrant.name}) late: paired from round {entrant.joined}"
          + (f"; {missed} missed round{'s' if missed != 1 else ''} count{'s' if missed == 1 else ''} as a "
             f"{entrant.missed}" if missed else ""))
    return 0


def _drop(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        entrant = service.drop(args.tournament, args.player, args.reason)
    print(f"dropped {entrant.id} ({entrant.name}) after round {entrant.dropped_after}: paired no more, results kept")
    return 0


def _swap(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        changed = service.swap(args.tournament, args.round, args.first, args.second, args.reason or "", _tokens)
    return print_started(changed, args.json)


def _pair(args: argparse.Namespace) -> int:
    with _tournaments(args.db) as service:
        repaired = service.repair(args.tournament, args.round, args.reason or "", _tokens)
    return print_started(repaired, args.json)


def _register_day(add: Any) -> None:
    p = add("unregister", "unregister a player (before round 1)", _unregister)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament")
    p.add_argument("--reason", default=None, help="why (recorded)")

    p = add("checkin", "check a player in (before round 1; a tournament created with --check-in pairs only the "
            "checked-in in round 1)", _checkin)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament")

    p = add("late", "register a player into a running tournament: paired from the next round, each missed round "
            "a loss or a bye", _late)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament (letters, digits, _ . : -); a player absent "
                   "from round 1 (not checked in) enters under their id")
    p.add_argument("--missed", choices=("loss", "bye"), required=True,
                   help="what each round already started counts as for the player (the organiser's choice)")
    p.add_argument("--name", default=None, help="the player's name as shown (default: the id)")
    p.system_command = "tournament register"  # api.plugin.TOURNAMENT_REGISTER: what a player brings

    p = add("drop", "drop a player from a running tournament: paired no more, results kept", _drop)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("player", help="the player's id in the tournament")
    p.add_argument("--reason", default=None, help="why (recorded)")

    p = add("swap", "swap two players of the current round (two tables, or a table and the bye) before either "
            "table's game has a move; prints the changed tables' new games and tokens", _swap)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("round", type=whole(1, MAX_ROUNDS), metavar="ROUND", help="the round's number (the current one)")
    p.add_argument("first", metavar="PLAYER", help="a player of the round")
    p.add_argument("second", metavar="PLAYER", help="the player of another table (or the bye) to swap with")
    p.add_argument("--reason", default=None, help="why (required; recorded with the round)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = add("pair", "pair the current round again (after a drop or a late entry) before any of its tables' games "
            "has a move; prints the new tables and tokens", _pair)
    p.add_argument("tournament", metavar="TOURNAMENT", help=TID_HELP)
    p.add_argument("round", type=whole(1, MAX_ROUNDS), metavar="ROUND", help="the round's number (the current one)")
    p.add_argument("--reason", default=None, help="why (required; recorded with the round)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
