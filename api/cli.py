"""The ``warlog`` command line. Each command group is a module in ``api/commands`` with ``register(sub)``.

Every command goes through ``main``: the database is resolved the same way for all of them (``--db``, else
``WARLOG_DB``, else ./warlog.duckdb); a command that only reads refuses to create an empty database; a command
that cannot go through a running ``warlog serve`` holding the file says so; and every failure is one line on
stderr with exit status 1 (2 for usage), never a traceback (``WARLOG_DEBUG=1`` shows it). docs/cli.md.

A command's parser may set ``creates_db=True`` (it may create the database: import, demo, serve, tournament
create) and ``through_server=True`` (it works through a server that holds the file, api/remote.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Callable

import api.commands
from api.database import CliError, database, lock_message, require_database
from api.installed import load_systems
from api.options import Parser
from engine.systems import BrokenPlugin

Command = Callable[[argparse.Namespace], int]


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("warlog")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``, with the version looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print warlog's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"warlog {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="warlog", description="Record and replay war games.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(api.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"api.commands.{info.name}")
        module.register(sub)
    return parser


def command_name(args: argparse.Namespace) -> str:
    """``export``, ``tournament list``: the command as the user typed it."""
    sub = getattr(args, "tournament_command", None) or getattr(args, "catalogue_command", None)
    return f"{args.command} {sub}" if sub else str(args.command)


def _prepare(args: argparse.Namespace) -> None:
    """The database every command sees in ``args.db``, checked before the command runs."""
    if not hasattr(args, "db"):
        return
    args.db = database(args.db)
    if not getattr(args, "creates_db", False):
        require_database(args.db)
    if not getattr(args, "through_server", False):
        from api.remote import find_holder, held_error

        holder = find_holder(args.db)
        if holder is not None:
            raise held_error(command_name(args), holder)


def describe(error: Exception, args: argparse.Namespace) -> str:
    """One sentence for an error a command did not handle itself."""
    from engine.errors import RuleError, SetupError
    from replay.errors import GameNotFound, StoreError

    db = getattr(args, "db", None)
    if isinstance(error, GameNotFound):
        return f"no game {error.game_id!r} in {db}" if db else str(error)
    if isinstance(error, RuleError | SetupError):
        return f"{error.code}: {error.message}"
    if isinstance(error, StoreError):
        return str(error)
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"
    if "duckdb" in sys.modules:
        import duckdb

        if isinstance(error, duckdb.Error):
            locked = lock_message(db or "?", error) if db else None
            return locked or f"the database {db} could not be used: {error}"
    return f"unexpected error: {type(error).__name__}: {error} (WARLOG_DEBUG=1 shows the traceback)"


def main(argv: list[str] | None = None) -> int:
    try:  # the installed game systems (their entry points), before the parser that lists them and their options
        load_systems()
        args = build_parser().parse_args(argv)
    except BrokenPlugin as error:  # an installed system that does not fit: which one, and why
        print(f"warlog: {error}", file=sys.stderr)
        return 1
    func: Command = args.func
    try:
        _prepare(args)
        return func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`warlog export ... | head`): no error, and none when stdout is flushed at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except CliError as error:
        _fail(args, error.message)
        return error.status
    except BrokenPlugin as error:  # a system's replay or API part, read when a command first needs it
        _fail(args, str(error))
        return 1
    except Exception as error:  # noqa: BLE001 - the one top-level handler: one line, never a traceback
        if os.environ.get("WARLOG_DEBUG"):
            raise
        if _is_setting(error):  # a WARLOG_* setting out of its range: a usage error, as a flag's would be
            from api.settings import Settings

            _fail(args, Settings.problem(error))  # type: ignore[arg-type]
            return 2
        _fail(args, describe(error, args))
        return 1


def _is_setting(error: Exception) -> bool:
    """A refused ``Settings`` (api/settings.py), without importing pydantic for a command that never did."""
    if "pydantic" not in sys.modules:
        return False
    from pydantic import ValidationError

    return isinstance(error, ValidationError) and error.title == "Settings"


def _fail(args: argparse.Namespace, message: str) -> None:
    print(f"warlog {command_name(args)}: {' '.join(message.split())}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
