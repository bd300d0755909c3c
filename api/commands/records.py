"""Whole games in and out of the command line: ``warlog import``, ``export``, ``verify`` and ``replay``.

    warlog import PATH... [--allow-duplicate] [--db FILE]  a text record or a .jsonl event stream per file
    warlog export GAME_ID|--all|--tournament T [--format record|jsonl] [--view V] [--comments] [--db FILE]
    warlog verify [--db FILE] [GAME_ID...]                 exit 1 when any divergence is found
    warlog replay GAME_ID [--view V] [--db FILE]           the mat in the terminal; over a pipe: every step
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api.database import DB_HELP


def _view(text: str) -> str:
    """An argparse type: a view name (``all``, ``spectator``, a seat ``p1``...``p9``); the game's seats are checked
    when it is read."""
    from replay.log.views import check_view

    try:
        return check_view(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@contextmanager
def _service(db: str) -> Iterator[Any]:
    """The games of ``db``: the file, or the running ``warlog serve`` that holds it (api/remote.py): a
    ``GameService`` or its stand-in over HTTP."""
    from api.remote import game_service

    with game_service(db) as service:
        yield service


def _import(args: argparse.Namespace) -> int:
    from replay.archive.games import DuplicateGame, import_games

    failed = 0
    with _service(args.db) as service:
        for path in args.paths:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except OSError as error:
                print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
                failed += 1
                continue
            except UnicodeDecodeError as error:  # records and JSONL are UTF-8 text
                bad = error.object[error.start : error.start + 1].hex()
                print(f"{path}: cannot read: not UTF-8 text (byte 0x{bad} at offset {error.start}); nothing of it "
                      "was imported", file=sys.stderr)
                failed += 1
                continue
            outcomes = list(import_games(service, text, name=path, allow_duplicate=args.allow_duplicate))
            several = len(outcomes) > 1  # then each game is named by the line it starts on
            for outcome in outcomes:
                where = f"{path}:{outcome.line}" if several else path
                problem = outcome.error
                if problem is None:
                    print(f"{where}: imported as {outcome.game_id}")
                    continue
                failed += 1
                if isinstance(problem, DuplicateGame):
                    print(f"{where}: not imported: the same game is already stored as "
                          f"{', '.join(problem.game_ids)} (identical events); use --allow-duplicate to store it again",
                          file=sys.stderr)
                else:
                    rule = f" [{problem.rule}]" if problem.rule else ""
                    print(f"{path}:{problem.line}: {problem.code}: {problem.message}{rule}", file=sys.stderr)
    return 1 if failed else 0


def _export(args: argparse.Namespace) -> int:
    from replay.archive.games import export_games, game_ids, tournament_names
    from replay.errors import GameNotFound, UnknownView

    chosen = [args.game_id] if args.game_id else []
    if bool(chosen) + bool(args.all) + bool(args.tournament) != 1:
        print("warlog export: give one of GAME_ID, --all or --tournament T", file=sys.stderr)
        return 2
    from api.remote import tournament_service

    with tournament_service(args.db) as tournaments:
        service = tournaments.games
        try:
            ids = chosen or game_ids(service, tournament=args.tournament)
            found = 0
            for text in export_games(service, ids, fmt=args.format, view=args.view, comments=args.comments,
                                     names=tournament_names(tournaments.log)):
                sys.stdout.write(text)
                found += 1
        except GameNotFound:
            print(f"warlog: no game {args.game_id!r} in {args.db}", file=sys.stderr)
            return 1
        except UnknownView as error:
            print(f"warlog export: {error}", file=sys.stderr)
            return 2
    if args.tournament and not found:
        print(f"warlog: no games of tournament {args.tournament!r} in {args.db}", file=sys.stderr)
        return 1
    return 0


def _verify(args: argparse.Namespace) -> int:
    from replay.log.verify import verify_all, verify_game

    games = 0
    found = 0
    with _service(args.db) as service:
        pairs = ((g, verify_game(service, g)) for g in args.game_ids) if args.game_ids else verify_all(service)
        for _, divergences in pairs:
            games += 1
            for divergence in divergences:
                found += 1
                print(divergence)
    print(f"verified {games} games: {found} divergence{'s' if found != 1 else ''}", file=sys.stderr)
    return 1 if found else 0


def _replay(args: argparse.Namespace) -> int:
    from api.terminal import run
    from replay.errors import GameNotFound, UnknownView
    from replay.log.cursor import ReplayCursor
    from replay.log.views import check_view

    with _service(args.db) as service:
        try:
            cursor = ReplayCursor(service, args.game_id)
            check_view(args.view, service.seats(args.game_id))
        except GameNotFound:
            print(f"warlog: no game {args.game_id!r} in {args.db}", file=sys.stderr)
            return 1
        except UnknownView as error:
            print(f"warlog replay: {error}", file=sys.stderr)
            return 2
        return run(cursor, view=args.view)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="import games (text records or .jsonl event streams)",
                       description="Import games: a text record (docs/record-format.md) or a JSONL event stream per "
                                   "file, every move checked by the rules. A file with an illegal move is reported "
                                   "with its line and rule and nothing of it is stored; a game already stored (the "
                                   "same events, whatever its id) is refused unless --allow-duplicate; exit 1 if any "
                                   "file failed.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="a text record (.record, .txt) or a JSONL event stream, each of one or several games")
    p.add_argument("--allow-duplicate", action="store_true",
                   help="store a game even when the same game (identical events) is stored already")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=_import, creates_db=True, through_server=True)

    p = sub.add_parser("export", help="write games as text records or JSONL",
                       description="Write one game, every game (--all) or a tournament's games (--tournament) to "
                                   "stdout: records one after another (a blank line between), or JSONL event "
                                   "streams (each line with its game_id); warlog import reads either back.")
    p.add_argument("game_id", metavar="GAME_ID", nargs="?", help="one game (its id, as `GET /games` lists it)")
    p.add_argument("--all", action="store_true", help="every game, oldest first")
    p.add_argument("--tournament", metavar="T", help="every game of tournament T (its id), oldest first")
    p.add_argument("--format", choices=("record", "jsonl"), default="record",
                   help="record: the text record (docs/record-format.md); jsonl: one event per line (default record)")
    p.add_argument("--view", type=_view, default="all", metavar="VIEW",
                   help="all, spectator or a seat (p1, p2, ...): redact what that seat may not see (default all)")
    p.add_argument("--comments", action="store_true", help="add explanations of eliminations as {comments}")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=_export, through_server=True)

    p = sub.add_parser("verify", help="check hash chains and re-decide stored games with today's rules",
                       description="Check every stored game's hash chain and re-decide it with today's rules; print "
                                   "each divergence (game, seq, what differs); exit 1 if any.")
    p.add_argument("game_ids", nargs="*", metavar="GAME_ID", help="only these games (default: all)")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=_verify, through_server=True)

    p = sub.add_parser("replay", help="step through a game in the terminal",
                       description="Step through a stored game: ←/→ step, g go to a seq, q quit. When stdin or "
                                   "stdout is not a terminal, print every step and exit.")
    p.add_argument("game_id", metavar="GAME_ID", help="the game's id (as `GET /games` lists it)")
    p.add_argument("--view", type=_view, default="spectator", metavar="VIEW",
                   help="whose view: all, spectator or a seat (p1, p2, ...) (default spectator)")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=_replay, through_server=True)
