"""``warlog stats NAME [filters]``, ``warlog sql "SELECT ..."``, ``warlog export-parquet DIR``, ``warlog reproject``.

``stats``, ``export-parquet`` and ``reproject`` open the database for writing (they bring the projections up to
date first); while ``warlog serve`` holds the same file, ``stats`` asks its ``/stats`` routes and ``reproject`` its
projector (api/remote.py), ``export-parquet`` and ``sql`` (read-only) stop with one sentence (docs/cli.md).
"""

from __future__ import annotations

import argparse
import csv
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

import msgspec

from api.database import CliError
from api.options import MAX_ROWS, Number, seconds, whole


def _db(args: argparse.Namespace) -> str:
    from api.settings import Settings

    return Settings.from_env(db=args.db).db


@contextmanager
def _projected(args: argparse.Namespace, whole: bool = False) -> Iterator[tuple[Any, Any, Any]]:
    """The store, its projector (caught up) and a reader cursor. With PostgreSQL: the statistics its servers
    publish (no store, no projector), or (``whole``: the log's tables too, for Parquet) a mirror of the log made
    for this command in a temporary directory (replay/analytics/beside.py)."""
    from replay.analytics.projections import attach
    from replay.store.open import is_postgres_url

    db = _db(args)
    if is_postgres_url(db):
        with _beside_postgres(db, whole) as found:
            yield found
        return
    from replay.store.duckdb_store import DuckDBEventStore

    store = DuckDBEventStore(db)  # held by another process: one sentence from api/cli.py
    projector = attach(store, background=False)
    conn = store.reader()
    try:
        yield store, projector, conn
    finally:
        conn.close()
        projector.close()
        store.close()


@contextmanager
def _beside_postgres(db: str, whole: bool) -> Iterator[tuple[Any, Any, Any]]:
    import tempfile

    from api.settings import Settings
    from replay.analytics.beside import LogMirror, StatsFile
    from replay.analytics.projections import attach
    from replay.errors import StoreUnavailable
    from replay.store.open import open_store

    if not whole:
        stats = StatsFile(Settings.from_env().stats_path())
        try:
            conn = stats.reader()
        except StoreUnavailable as error:
            raise CliError(f"{error}; `warlog serve --db <url>` publishes them (--stats-db, WARLOG_STATS_DB)") from None
        try:
            yield None, None, conn
        finally:
            conn.close()
            stats.close()
        return
    store = open_store(db)
    try:
        with tempfile.TemporaryDirectory(prefix="warlog-mirror-") as folder:
            mirror = LogMirror(store, f"{folder}/mirror.duckdb")
            try:
                mirror.sync()
                projector = attach(mirror, background=False)
                conn = mirror.reader()
                try:
                    yield store, projector, conn
                finally:
                    conn.close()
                    projector.close()
            finally:
                mirror.close()
    finally:
        store.close()


# -- printing -------------------------------------------------------------------------------------------------

TEXT_MAX = 24  # a text column of a table too wide for the terminal is cut to this many characters ('…')
HEADER_MIN = 6  # headers of such a table are abbreviated down to their values' width, not below this


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def terminal_width() -> int:
    """Columns of the terminal (``COLUMNS`` first; 80 when stdout is not a terminal)."""
    return shutil.get_terminal_size((80, 24)).columns


def abbreviate(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters, shortening its longest ``_``-separated words first
    (``survival_high`` -> ``sur_hi`` at 6)."""
    if len(name) <= width:
        return name
    for sep in ("_", ""):  # too many words for the underscores: run them together (win_rate_placed_low -> wiraplo)
        words = name.split("_")
        while len(sep.join(words)) > width and max(map(len, words)) > 1:
            longest = max(range(len(words)), key=lambda i: (len(words[i]), -i))
            words[longest] = words[longest][:-1]
        if len(sep.join(words)) <= width:
            return sep.join(words)
    return name[:width]


def _cut(text: str, width: int) -> str:
    """At most ``width`` characters, '…' at the end."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _cut_middle(text: str, width: int) -> str:
    """At most ``width`` characters, '…' in the middle: ids keep their ends (``dwarves/dwarf-b…slayer-2``)."""
    if len(text) <= width:
        return text
    tail = min(8, width // 3)
    return text[: max(0, width - 1 - tail)] + "…" + text[len(text) - tail :]


def _is_bound(column: str) -> bool:
    """An interval's bound (``low``, ``survival_high``): left out before the other columns when space is short."""
    return column.split("_")[-1] in ("low", "high")


def print_table(rows: list[dict[str, Any]], out: Any = None, width: int | None = None) -> None:
    """Rows as an aligned table. With ``width`` no line is longer, and nothing wraps: when the natural table is
    wider, text values are cut to TEXT_MAX, headers abbreviated to their values' width (a key line says what they
    stand for), and columns are left out, the intervals' bounds first, then from the right (a last line names them).
    """
    out = out or sys.stdout  # looked up per call (tests and pipes replace it)
    if not rows:
        print("(no rows)", file=out)
        return
    columns = list(rows[0])
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    numeric = [all(_is_number(row.get(c)) for row in rows) and any(row.get(c) is not None for row in rows)
               for c in columns]
    values = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    headers = list(columns)
    widths = [max(len(h), v) for h, v in zip(headers, values, strict=True)]
    shown = list(range(len(columns)))
    if width is not None and sum(widths) + 2 * (len(widths) - 1) > width:
        values = [v if numeric[i] else min(v, TEXT_MAX) for i, v in enumerate(values)]
        headers = [abbreviate(h, max(v, HEADER_MIN)) for h, v in zip(columns, values, strict=True)]
        widths = [max(len(h), v) for h, v in zip(headers, values, strict=True)]
        cells = [[_cut_middle(r[i], widths[i]) for i in range(len(columns))] for r in cells]
        # what to leave out, in order: each interval's bounds together (from the right), then columns from the right
        bounds = [i for i in range(len(columns)) if _is_bound(columns[i])]
        groups = [[i for i in bounds if i == j or (i == j + 1 and j in bounds)] for j in bounds
                  if j - 1 not in bounds]
        order = [g for g in reversed(groups)] + [[i] for i in reversed(range(1, len(columns)))]
        shown = list(range(len(columns)))
        for group in order:
            if sum(widths[j] for j in shown) + 2 * (len(shown) - 1) <= width:
                break
            shown = [i for i in shown if i not in group]

    def line(values: list[str]) -> str:
        text = "  ".join(values[i].rjust(widths[i]) if numeric[i] else values[i].ljust(widths[i]) for i in shown)
        return text.rstrip() if width is None else text.rstrip()[:width]

    print(line(headers), file=out)
    print(line(["-" * w for w in widths]), file=out)
    for row in cells:
        print(line(row), file=out)
    short = [f"{headers[i]} = {columns[i]}" for i in shown if headers[i] != columns[i]]
    if short:
        print(_cut("(" + ", ".join(short) + ")", width or 10**9), file=out)
    left_out = [c for i, c in enumerate(columns) if i not in shown]
    if left_out:
        note = (f"({len(left_out)} more column{'s' if len(left_out) > 1 else ''} than fit the terminal, "
                f"all in --csv or --json: {', '.join(left_out)})")
        print(_cut(note, width or len(note)), file=out)


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


_POINTS = ("rating", "peak", "before", "after", "opponent_before")  # Elo ratings and their history


def _whole_points(data: dict[str, Any]) -> dict[str, Any]:
    """Ratings are printed as whole points (1517, not 1516.770); --json keeps them as computed."""

    def whole(row: dict[str, Any]) -> dict[str, Any]:
        return {k: math.floor(v + 0.5) if k in _POINTS and isinstance(v, float) else v for k, v in row.items()}

    return {k: [whole(r) if isinstance(r, dict) else r for r in v] if isinstance(v, list) else v
            for k, v in whole(data).items()}


def _tables(data: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    tables = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            tables.append((key, value))
        elif isinstance(value, dict) and key != "filters":
            tables.append((key, [value]))
    return tables


def limit_rows(result: msgspec.Struct, limit: int | None) -> msgspec.Struct:
    """The result with at most ``limit`` rows in each of its tables (``None`` or 0: all)."""
    if not limit:
        return result
    cut = {}
    for f in msgspec.structs.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, list) and value and isinstance(value[0], msgspec.Struct) and len(value) > limit:
            cut[f.name] = value[:limit]
    return msgspec.structs.replace(result, **cut)


def print_csv(result: msgspec.Struct, out: Any = None) -> None:
    """The result's tables as CSV, every column and full precision. Several tables: a first column ``table``."""
    out = out or sys.stdout
    tables = _tables(msgspec.to_builtins(result))
    several = len(tables) > 1
    columns = (["table"] if several else []) + list(dict.fromkeys(c for _, rows in tables for c in rows[0]))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for name, rows in tables:
        for row in rows:
            values = ({"table": name} if several else {}) | row
            writer.writerow([_csv_value(values.get(c)) for c in columns])


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return value


def print_result(result: msgspec.Struct, as_json: bool, limit: int | None = None, width: int | None = None,
                 notes: Callable[[dict[str, Any], int | None], Sequence[Sequence[str]]] | None = None) -> None:
    """The result as JSON, or as text: its scalars, then each table (at most ``limit`` rows, fitted to ``width``),
    then the statistic's ``notes`` (text blocks it adds, e.g. a picture of the board; they see every row)."""
    if as_json:
        sys.stdout.write(msgspec.json.encode(limit_rows(result, limit)).decode() + "\n")
        return
    data = _whole_points(msgspec.to_builtins(result))
    filters = {k: v for k, v in data.pop("filters", {}).items() if v not in (None, 0) or k == "system"}
    print(_cut("filters: " + ", ".join(f"{k}={v}" for k, v in filters.items()), width or 10**9))
    for key, value in data.items():
        if not isinstance(value, list | dict) or (isinstance(value, list) and not value):
            print(f"{key}: {_cell(value)}")
    for name, rows in _tables(data):
        print(f"\n{name}:")
        print_table(rows[:limit] if limit else rows, width=width)
        if limit and len(rows) > limit:
            print(f"({limit} of {len(rows)} rows: --limit N for more, --limit 0 for all)")
    for block in notes(data, width) if notes is not None else ():
        print("\n" + "\n".join(block))


# -- commands ---------------------------------------------------------------------------------------------------


def _filters(args: argparse.Namespace) -> Any:
    from replay.analytics.stats import Filters

    try:
        return Filters(
            system=args.system,
            date_from=args.date_from,
            date_to=args.date_to,
            tournament=args.tournament,
            army=args.army,
            variant=args.variant,
            rules_version=args.rules_version,
            min_games=args.min_games,
            ending=args.ending,
            catalogue=args.catalogue,
        )
    except ValueError as error:
        raise SystemExit(f"warlog stats: {error}") from None  # the message says it all; the chain is noise


def parameters(statistic: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The statistic's own parameters from the command line: its flags, and the CLI's ``--limit`` for a statistic
    that takes a ``limit`` (0 or none: every row). A path parameter's flag is required."""
    values: dict[str, Any] = {}
    for parameter in statistic.parameters:
        if parameter.name == "limit" and not parameter.cli:
            values["limit"] = args.limit or None
            continue
        value = getattr(args, parameter.name, None)
        if parameter.in_path and not value:
            raise CliError(f"{parameter.flag} is required for this statistic", status=2)
        values[parameter.name] = value if value is not None else parameter.default
    return values


def _stats(args: argparse.Namespace) -> int:
    from api.remote import find_holder, remote_stat
    from replay.analytics.catalogue import run, statistic, unsupported_filter

    entry = statistic(args.name)
    params = parameters(entry, args)
    filters = _filters(args)
    refused = unsupported_filter(entry, filters)
    if refused is not None:
        raise CliError(refused, status=2)
    holder = find_holder(_db(args))
    if holder is not None:  # `warlog serve` holds the file: ask it (api/remote.py)
        result = remote_stat(holder, entry, filters, params)
    else:
        with _projected(args) as (_, _, conn):
            if args.army is not None:
                from replay.analytics.stats import known_armies

                known = known_armies(conn, args.system)
                if args.army not in known:
                    print(f"warlog stats: no army {args.army!r}; the known armies are {', '.join(known)}.",
                          file=sys.stderr)
                    return 1
            result = run(entry, conn, filters, params)
    if args.csv:
        print_csv(limit_rows(result, args.limit))
    else:
        print_result(result, args.json, args.limit, None if args.json else terminal_width(), entry.notes)
    return 0


def _reproject(args: argparse.Namespace) -> int:
    from replay.store.open import is_postgres_url

    if is_postgres_url(_db(args)):
        raise CliError("with PostgreSQL the analytics leader (one `warlog serve` process) keeps the projections: "
                       "to rebuild them, stop the servers, delete the statistics file's .mirror and start again")
    from api.remote import find_holder, remote_reproject

    started = time.perf_counter()
    holder = find_holder(_db(args))
    if holder is not None:  # `warlog serve` holds the file: its projector rebuilds (api/remote.py)
        games = remote_reproject(holder)
    else:
        with _projected(args) as (_, projector, _):
            started = time.perf_counter()
            games = projector.rebuild()
    print(f"reprojected {games} games in {time.perf_counter() - started:.2f} s")
    return 0


def _export(args: argparse.Namespace) -> int:
    from replay.analytics.parquet import ExportError, export

    with _projected(args, whole=True) as (_, _, conn):
        try:
            tables = export(conn, args.directory)
        except ExportError as error:
            print(f"warlog export-parquet: {error}", file=sys.stderr)
            return 1
        for table in tables:
            print(f"{table.table:<16} {table.rows:>10} rows  {table.path}")
    return 0


SQL_CHUNK = 1_000  # rows fetched (and printed) at a time: memory stays bounded whatever the result's size


# Statement kinds that write (a table, a file, the catalog or the settings): refused before they run, so the answer
# does not depend on whether the target is a table or a view (a view's DELETE is a binder error, not a read-only one)
# and nothing reaches the database; the read-only connection stays the guard for whatever parses otherwise.
WRITING = frozenset({"INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "COPY", "ATTACH", "DETACH", "LOAD",
                     "EXPORT", "COPY_DATABASE", "VACUUM", "TRANSACTION", "SET", "VARIABLE_SET", "UPDATE_EXTENSIONS",
                     "CREATE_FUNC", "PREPARE", "EXECUTE"})


def _writing_statements(conn: Any, query: str) -> list[str]:
    """The kinds of the query's statements that would write (none: a parse error is the query's own answer)."""
    import duckdb

    try:
        statements = conn.extract_statements(query)
    except duckdb.Error:
        return []
    return [s.type.name for s in statements if s.type.name in WRITING]


def _bounded(query: str, limit: int) -> str:
    """A single SELECT asks DuckDB for at most ``limit`` + 1 rows (one more tells whether there were more).

    The rows are streamed either way; the bound stops the work too, so ``select * from range(10^9)`` does not keep
    DuckDB's threads producing rows nobody will print. Anything else (PRAGMA, SHOW, several statements) runs as given.
    """
    import duckdb

    if not limit:
        return query
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error:
        return query  # DuckDB reports the syntax error when the query runs, in its own words
    if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
        return query
    inner = statements[0].query.strip().rstrip(";")
    return f"SELECT * FROM (\n{inner}\n) LIMIT {limit + 1}"


# The connection of ``warlog sql``: read-only, and no file but the database itself. Without external access DuckDB
# still lets a connection use one directory, its temporary one (``<db>.tmp/``): COPY wrote there, read_text and
# read_csv read it, ATTACH created databases there, and a symlink placed in it led anywhere (issue 28 item 16).
# No temporary directory leaves none (a query that would spill to disk fails instead: the CLI's queries are
# bounded by --limit and --timeout), and the configuration is locked so that no statement can change it back.
SQL_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False, "temp_directory": "", "lock_configuration": True,
}


def _sql(args: argparse.Namespace) -> int:
    """Run one query read-only and stream its rows: at most ``--limit`` of them, within ``--timeout`` seconds."""
    import threading

    import duckdb

    path = _db(args)
    from replay.store.open import is_postgres_url

    if is_postgres_url(path):  # the statistics published beside PostgreSQL (replay/analytics/beside.py)
        from api.settings import Settings

        path = Settings.from_env().stats_path()
    try:
        conn = duckdb.connect(path, read_only=True, config=SQL_CONFIG)
    except duckdb.Error as error:
        from api.database import lock_message

        print(f"warlog sql: {lock_message(path, error) or f'cannot open {path} read-only: {error}'}", file=sys.stderr)
        return 1
    timer = threading.Timer(args.timeout, conn.interrupt) if args.timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    out = _JsonRows(sys.stdout) if args.json else _TextRows(sys.stdout)
    shown, more = 0, False
    try:
        writing = _writing_statements(conn, args.query)
        if writing:
            print(f"warlog sql: refused: queries are read-only ({', '.join(writing)} would write)", file=sys.stderr)
            return 2
        bounded = _bounded(args.query, args.limit)
        try:
            relation = conn.execute(bounded)
        except duckdb.ParserException:
            if bounded == args.query:
                raise
            relation = conn.execute(args.query)  # a trailing comment or the like defeated the wrapping
        columns = [d[0] for d in relation.description or []]
        while columns:
            want = SQL_CHUNK if not args.limit else min(SQL_CHUNK, args.limit - shown)
            rows = relation.fetchmany(want) if want else []
            if not rows:
                more = bool(args.limit) and shown == args.limit and bool(relation.fetchmany(1))
                break
            out.write(columns, rows)
            shown += len(rows)
    except duckdb.InterruptException:
        print(f"warlog sql: the query was stopped after {args.timeout:g} s (--timeout); narrow it, or give it more "
              "time with --timeout SECONDS (0 = no limit).", file=sys.stderr)
        return 1
    except duckdb.Error as error:
        message = str(error)
        if "read-only" in message or "disabled by configuration" in message:
            print(f"warlog sql: refused: queries are read-only ({message})", file=sys.stderr)
        else:
            print(f"warlog sql: {message}", file=sys.stderr)
        return 2
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()
        conn.close()
    out.close()
    if more:
        note = f"(the first {shown:,} rows: --limit N for more, --limit 0 for all)"
        print(note, file=sys.stderr if args.json else sys.stdout)
    return 0


class _TextRows:
    """An aligned table written as the rows come: column widths from the first chunk (a longer value later
    widens only its own line)."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.widths: list[int] | None = None
        self.numeric: list[bool] = []

    def write(self, columns: list[str], rows: list[tuple]) -> None:
        cells = [[_cell(v) for v in row] for row in rows]
        if self.widths is None:
            self.widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
            self.numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(columns))]
            print(self._line(columns), file=self.out)
            print("  ".join("-" * w for w in self.widths), file=self.out)
        for row in cells:
            print(self._line(row), file=self.out)
        self.out.flush()

    def _line(self, values: list[str]) -> str:
        assert self.widths is not None
        return "  ".join(v.rjust(w) if n else v.ljust(w)
                         for v, w, n in zip(values, self.widths, self.numeric, strict=True)).rstrip()

    def close(self) -> None:
        if self.widths is None:
            print("(no rows)", file=self.out)


class _JsonRows:
    """A JSON array of objects written as the rows come."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.started = False

    def write(self, columns: list[str], rows: list[tuple]) -> None:
        for row in rows:
            record = msgspec.json.encode(dict(zip(columns, row, strict=True)), enc_hook=str).decode()
            self.out.write((",\n" if self.started else "[") + record)
            self.started = True
        self.out.flush()

    def close(self) -> None:
        self.out.write(("]" if self.started else "[]") + "\n")  # one object a line, the array closed at the end


def _add_db(parser: argparse.ArgumentParser) -> None:
    from api.database import DB_HELP

    parser.add_argument("--db", default=None, help=DB_HELP)


def register(sub: argparse._SubParsersAction) -> None:
    stats = sub.add_parser(
        "stats",
        help="standard statistics (win rates, matchups, cards, ratings, ...)",
        description="Print a standard statistic over finished games (docs/statistics.md).",
    )
    from engine.systems import DEFAULT_SYSTEM as default
    from replay.analytics.catalogue import catalogue

    entries = catalogue()
    names = [entry.name for entry in entries]
    stats.add_argument("name", choices=names, metavar="NAME", help=f"the statistic: {', '.join(names)}")
    _add_db(stats)
    stats.add_argument("--system", default=default, help=f"game system (default {default})")
    stats.add_argument("--from", dest="date_from", type=date.fromisoformat, help="first day (YYYY-MM-DD)")
    stats.add_argument("--to", dest="date_to", type=date.fromisoformat, help="last day (YYYY-MM-DD), inclusive")
    stats.add_argument("--tournament", help="only the games of this tournament (its id)")
    stats.add_argument("--catalogue", metavar="ID",
                       help="only the games played on this catalogue (its id); a system's own statistics name its "
                       "cards as that catalogue does")
    stats.add_argument("--army", help="army, faction or clan label, e.g. orcs")
    stats.add_argument("--variant", help="the system's variant label, e.g. standard")
    stats.add_argument("--rules-version", help="the rules version the games were recorded under")
    stats.add_argument("--min-games", type=whole(0, 1_000_000), default=0, metavar="N",
                       help="leave out groups with fewer games")
    stats.add_argument("--ending", choices=("rules", "adjudicated", "all"),
                       help="the core statistics' games: decided by their rules (the default; end-reasons: all), "
                       "ended by adjudicate, or all")
    flags: dict[str, tuple[Any, list[str]]] = {}  # each statistic's own parameters, one flag each
    for entry in entries:
        for parameter in entry.parameters:
            if parameter.cli:
                flags.setdefault(parameter.name, (parameter, []))[1].append(entry.name)
    for parameter, users in flags.values():
        text = f"{', '.join(users)}: {parameter.help}"
        if parameter.type is bool:
            stats.add_argument(parameter.flag, action="store_true", help=text)
        else:
            kind = Number(parameter.ge, parameter.le) if parameter.type is int else parameter.type
            stats.add_argument(parameter.flag, type=kind, help=text)
    stats.add_argument("--limit", type=whole(0, MAX_ROWS, zero="every row"), default=None, metavar="N",
                       help="at most N rows of each table (ratings: the top N; 0 or none: every row)")
    output = stats.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the typed result as JSON")
    output.add_argument("--csv", action="store_true",
                        help="the tables as CSV, every column, full precision (several tables: a 'table' column)")
    stats.set_defaults(func=_stats, through_server=True)

    query = sub.add_parser(
        "sql",
        help="run a read-only SQL query",
        description="Run an ad-hoc query on a read-only connection (writes and file access are refused). "
        "Tables: events, games, proj_games, proj_seats, proj_opponents and each game system's own "
        "(docs/statistics.md).",
    )
    query.add_argument("query", help="one SQL statement (DuckDB's dialect), e.g. \"SELECT count(*) FROM games\"")
    _add_db(query)
    query.add_argument("--json", action="store_true", help="rows as a JSON array of objects")
    query.add_argument("--limit", type=whole(0, MAX_ROWS, zero="every row"), default=1_000, metavar="N",
                       help="print at most N rows (default 1000; 0: every row); a last line says when there were more")
    query.add_argument("--timeout", type=seconds(0, 86_400, zero="no limit"), default=30.0, metavar="SECONDS",
                       help="stop the query after this many seconds (default 30; 0: no limit)")
    query.set_defaults(func=_sql)

    parquet = sub.add_parser(
        "export-parquet",
        help="export the log and projections as Parquet",
        description="Write events, games and proj_* tables under DIR, partitioned by system and month.",
    )
    parquet.add_argument("directory", metavar="DIR", help="the folder to write into (created if missing)")
    _add_db(parquet)
    parquet.set_defaults(func=_export)

    reproject = sub.add_parser(
        "reproject", help="rebuild the projections from the log", description="Empty every projection and rebuild."
    )
    _add_db(reproject)
    reproject.set_defaults(func=_reproject, through_server=True)
