"""``warlog demo [--system S] [--players N] --games N``: record N complete bot games through the same code path
as the API, of any registered system (default: ``engine.systems.DEFAULT_SYSTEM``)."""

from __future__ import annotations

import argparse
import sys
import time

from api.database import DB_HELP, CliError
from api.options import MAX_SEED, whole
from engine.system import MAX_SEATS, MIN_SEATS

MAX_GAMES = 1_000_000  # a bound, not a goal: a million games take hours


def progress(done: int, total: int, started: float, width: int = 30) -> str:
    filled = width * done // max(total, 1)
    elapsed = time.monotonic() - started
    rate = done / elapsed if elapsed > 0 else 0.0
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:.1f} games/s"


def _demo(args: argparse.Namespace) -> int:
    from api.remote import game_service
    from engine.errors import SetupError
    from engine.systems import DEFAULT_SYSTEM, UnknownSystem, get_system
    from replay.errors import CatalogueRefused
    from replay.log.demo import demo_catalogue, demo_setup, record_demo_games

    if args.seed + args.games - 1 > MAX_SEED:
        raise CliError(f"--seed {args.seed} with --games {args.games}: the last game's seed would be past 2^63-1 "
                       f"({MAX_SEED}); give a smaller --seed", status=2)
    name = args.system or DEFAULT_SYSTEM
    try:  # before the database is opened: a bad choice creates nothing
        system = get_system(name)
        demo_setup(0, args.seed, system.name, args.players)
    except UnknownSystem as error:
        raise CliError(str(error.args[0]), status=2) from None
    except SetupError as error:
        raise CliError(f"--players {args.players}: {error.message} ({system.name}: {system.seat_counts()} seats)",
                       status=2) from None
    with game_service(args.db) as service:  # the file, or the `warlog serve` that holds it (api/remote.py)
        catalogue = None
        if args.catalogue is not None:  # issue 30: checked before any game is recorded
            try:
                catalogue = demo_catalogue(service, system.name, args.catalogue)
            except CatalogueRefused as error:
                raise CliError(f"--catalogue {args.catalogue}: {error.message}", status=2) from None
        started = time.monotonic()
        show = sys.stderr.isatty() or args.progress
        wins: dict[str, int] = {}
        games = record_demo_games(service, args.games, seed=args.seed, system=system.name, seats=args.players,
                                  catalogue=catalogue)
        for index, game in enumerate(games, start=1):
            wins[game.winner] = wins.get(game.winner, 0) + 1
            if show:
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)  # the bar's line, cleared for the game's
            print(f"recorded {game.game_id}: {game.winner} ({game.end_reason})", flush=show)
            if show:
                print(progress(index, args.games, started), end="", file=sys.stderr, flush=True)
        if show:
            print(file=sys.stderr)
        summary = ", ".join(f"{k}: {v}" for k, v in sorted(wins.items()))
        print(f"recorded {args.games} {system.name} bot games into {args.db} ({summary})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    demo = sub.add_parser(
        "demo",
        help="record N complete bot games",
        description="Record N complete bot games of a game system (its sample setups in turn, e.g. every army "
                    "pairing with the variants cycling) through the rules and the store.",
    )
    demo.add_argument("--system", default=None, metavar="S",
                      help="the game system (default: the first one registered)")
    demo.add_argument("--players", type=whole(MIN_SEATS, MAX_SEATS), default=None, metavar="N",
                      help="seats per game (default: each sample setup's own; the system decides what it allows)")
    demo.add_argument("--games", type=whole(1, MAX_GAMES), default=10, metavar="N", help="how many games (default 10)")
    demo.add_argument("--seed", type=whole(0, MAX_SEED), default=1, metavar="S",
                      help="first seed (game i uses seed+i; default 1)")
    demo.add_argument("--catalogue", default=None, metavar="ID",
                      help="play on this stored catalogue (warlog catalogue list): its armies (and maps) in turn "
                      "(default: the system's default catalogue)")
    demo.add_argument("--db", default=None, help=DB_HELP)
    demo.add_argument("--progress", action="store_true", help="show the progress bar even when not on a terminal")
    demo.set_defaults(func=_demo, creates_db=True, through_server=True)
