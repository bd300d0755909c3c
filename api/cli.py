"""The ``warlog`` command line. Each command group is a module in ``api/commands`` with ``register(sub)``."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable

import api.commands

Command = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="warlog", description="Record and replay war games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(api.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"api.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Command = args.func
    try:
        return func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
