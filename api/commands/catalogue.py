"""``warlog catalogue``: the catalogues of a database (issue 30; docs/catalogues.md).

    warlog catalogue import FILE... [--db FILE]   check each JSON file and store it (its id: its content hash)
    warlog catalogue list [--system S] [--json]   each system's default, then the stored ones, oldest first
    warlog catalogue show ID                      its labels and what it holds
    warlog catalogue export ID                    the document as JSON, to standard output

Beside a running ``warlog serve`` they go through it (api/remote.py), as ``warlog import`` does: the document is
checked here, and the server's store keeps it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api.database import DB_HELP, CliError


@contextmanager
def _book(db: str) -> Iterator[Any]:
    """The catalogues of ``db``: the file, or the running ``warlog serve`` that holds it."""
    from api.remote import game_service
    from replay.catalogues import CatalogueBook

    with game_service(db) as service:
        yield CatalogueBook(service.store)


def _import(args: argparse.Namespace) -> int:
    from engine.catalogue import CatalogueError

    failed = 0
    with _book(args.db) as book:
        for path in args.paths:
            try:
                document = json.loads(Path(path).read_text(encoding="utf-8"))
            except OSError as error:
                print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
                failed += 1
                continue
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                print(f"{path}: not a JSON document: {error}", file=sys.stderr)
                failed += 1
                continue
            try:
                summary, added = book.add(document)
            except CatalogueError as refused:
                for problem in refused.problems:
                    rule = f" [{problem.rule}]" if problem.rule else ""
                    print(f"{path}: {problem.path or 'catalogue'}: {problem.message}{rule}", file=sys.stderr)
                print(f"{path}: not imported ({len(refused.problems)} problems)", file=sys.stderr)
                failed += 1
                continue
            how = "imported as" if added else ("is the default catalogue" if summary.default else "already stored as")
            print(f"{path}: {how} {summary.id} ({summary.system}: {summary.name} {summary.version})")
    return 1 if failed else 0


def _list(args: argparse.Namespace) -> int:
    import msgspec

    with _book(args.db) as book:
        found = book.list(args.system)
    if args.json:
        print(json.dumps({"catalogues": msgspec.to_builtins(found)}, indent=2))
        return 0
    for summary in found:
        when = "default" if summary.default else (summary.created_at or "")[:10]
        print(f"{summary.id}  {summary.system:<14} {when:<10}  {summary.name} {summary.version}")
    if not found:
        print("no catalogues", file=sys.stderr)
    return 0


def _document(args: argparse.Namespace) -> bytes:
    from replay.errors import CatalogueNotFound

    with _book(args.db) as book:
        try:
            return book.document(args.id)
        except CatalogueNotFound:
            raise CliError(f"no catalogue {args.id!r} in {args.db} (`warlog catalogue list` lists them)") from None


def _show(args: argparse.Namespace) -> int:
    document = json.loads(_document(args))
    print(f"{args.id}: {document.get('system')} catalogue {document.get('name')!r} version {document.get('version')!r}")
    if document.get("about"):
        print(f"about: {document['about']}")
    for key, value in document.items():
        if isinstance(value, list):
            names = [str(item.get("name", item.get("id", "?"))) for item in value if isinstance(item, dict)]
            shown = ", ".join(names[:12]) + (f", ... ({len(names) - 12} more)" if len(names) > 12 else "")
            print(f"{key}: {len(value)}" + (f" ({shown})" if shown else ""))
    return 0


def _export(args: argparse.Namespace) -> int:
    document = json.loads(_document(args))
    print(json.dumps(document, indent=1, ensure_ascii=False))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("catalogue", help="a system's cards, armies, decks and maps: import, list, show, export",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="catalogue_command", required=True, metavar="ACTION")

    def add(name: str, help_text: str, handler: Any) -> argparse.ArgumentParser:
        p = commands.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--db", default=None, help=DB_HELP)
        p.set_defaults(func=handler, through_server=True, creates_db=name == "import")
        return p

    p = add("import", "check catalogue documents (JSON) and store them; each is refused with every problem found",
            _import)
    p.add_argument("paths", nargs="+", metavar="FILE", help="a catalogue document (JSON)")
    p = add("list", "each system's default catalogue, then the stored ones, oldest first", _list)
    p.add_argument("--system", default=None, help="only this system's catalogues")
    p.add_argument("--json", action="store_true", help="as GET /catalogues answers")
    p = add("show", "a catalogue's labels and what it holds", _show)
    p.add_argument("id", metavar="ID", help="the catalogue's id (c-...)")
    p = add("export", "the catalogue document as JSON, on standard output", _export)
    p.add_argument("id", metavar="ID", help="the catalogue's id (c-...)")
