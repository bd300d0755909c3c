"""``warlog stats NAME [filters]``, ``warlog sql "SELECT ..."``, ``warlog export-parquet DIR``, ``warlog reproject``.

``stats``, ``export-parquet`` and ``reproject`` open the database for writing (they bring the projections up to
date first), so they cannot run while ``warlog serve`` holds the same file; ``sql`` opens it read-only.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import msgspec


def _db(args: argparse.Namespace) -> str:
    from api.settings import Settings

    return Settings.from_env(db=args.db).db


@contextmanager
def _projected(args: argparse.Namespace) -> Iterator[tuple[Any, Any, Any]]:
    """The store, its projector (caught up) and a reader cursor."""
    from replay.projections import attach
    from replay.store_duckdb import DuckDBEventStore

    store = DuckDBEventStore(_db(args))  # held by another process: one sentence from api/cli.py
    projector = attach(store, background=False)
    conn = store.reader()
    try:
        yield store, projector, conn
    finally:
        conn.close()
        projector.close()
        store.close()


# -- printing -------------------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def print_table(rows: list[dict[str, Any]], out: Any = None) -> None:
    out = out or sys.stdout  # looked up per call (tests and pipes replace it)
    if not rows:
        print("(no rows)", file=out)
        return
    columns = list(rows[0])
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    numeric = [all(_is_number(row.get(c)) for row in rows) for c in columns]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric, strict=True))

    print(line(columns).rstrip(), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for row in cells:
        print(line(row).rstrip(), file=out)


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _heat_grid(rows: list[dict[str, Any]]) -> list[str]:
    """The 7x6 mat with placement counts, row 6 on top (board squares only)."""
    counts = {r["square"]: r["placements"] for r in rows}
    if not counts or any(len(s) != 2 or s[0] not in "ABCDEFG" for s in counts):
        return []
    width = max(3, max(len(str(n)) for n in counts.values()))
    lines = ["    " + " ".join(c.rjust(width) for c in "ABCDEFG")]
    for row in range(6, 0, -1):
        lines.append(f"{row:>3} " + " ".join(str(counts.get(f"{c}{row}", ".")).rjust(width) for c in "ABCDEFG"))
    return lines


_POINTS = ("rating", "peak", "before", "after", "opponent_before")  # Elo ratings and their history


def _whole_points(data: dict[str, Any]) -> dict[str, Any]:
    """Ratings are printed as whole points (1517, not 1516.770); --json keeps them as computed."""

    def whole(row: dict[str, Any]) -> dict[str, Any]:
        return {k: math.floor(v + 0.5) if k in _POINTS and isinstance(v, float) else v for k, v in row.items()}

    return {k: [whole(r) if isinstance(r, dict) else r for r in v] if isinstance(v, list) else v
            for k, v in whole(data).items()}


def print_result(result: msgspec.Struct, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
        return
    data = _whole_points(msgspec.to_builtins(result))
    filters = {k: v for k, v in data.pop("filters", {}).items() if v not in (None, 0) or k == "system"}
    print("filters: " + ", ".join(f"{k}={v}" for k, v in filters.items()))
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            tables.append((key, value))
        elif isinstance(value, dict):
            tables.append((key, [value]))
        elif not isinstance(value, list) or not value or key != "armies":
            print(f"{key}: {_cell(value)}")
    for name, rows in tables:
        print(f"\n{name}:")
        print_table(rows)
        if isinstance(result, _heatmap_type()):
            grid = _heat_grid(rows)
            if grid:
                print("\n" + "\n".join(grid))


def _heatmap_type() -> type:
    from replay.stats import HeatMap

    return HeatMap


# -- commands ---------------------------------------------------------------------------------------------------


def _filters(args: argparse.Namespace) -> Any:
    from replay.stats import Filters

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
        )
    except ValueError as error:
        raise SystemExit(f"warlog stats: {error}")


def _compute(name: str, conn: Any, args: argparse.Namespace) -> msgspec.Struct:
    from replay import ratings, stats

    filters = _filters(args)
    table: dict[str, Callable[[], msgspec.Struct]] = {
        "armies": lambda: stats.army_win_rates(conn, filters),
        "matchups": lambda: stats.matchups(conn, filters),
        "first-player": lambda: stats.first_player(conn, filters),
        "game-length": lambda: stats.game_length(conn, filters),
        "end-reasons": lambda: stats.end_reasons(conn, filters),
        "cards": lambda: stats.cards(conn, filters),
        "heatmap": lambda: stats.heatmap(conn, filters, args.card, args.owner_view, args.include_challenge),
        "ratings": lambda: ratings.ratings(conn, filters, args.limit),
        "rating-history": lambda: ratings.rating_history(conn, _need(args.player, "--player"), filters),
        "head-to-head": lambda: stats.head_to_head(conn, filters, args.player, args.opponent),
    }
    return table[name]()


def _need(value: str | None, flag: str) -> str:
    if not value:
        raise SystemExit(f"warlog stats: {flag} is required for this statistic")
    return value


NAMES = ("armies", "matchups", "first-player", "game-length", "end-reasons", "cards", "heatmap", "ratings",
         "rating-history", "head-to-head")


def _stats(args: argparse.Namespace) -> int:
    from api.remote import find_holder, remote_stat

    holder = find_holder(_db(args))
    if holder is not None:  # `warlog serve` holds the file: ask it (api/remote.py)
        result = remote_stat(holder, args.name, args)
    else:
        with _projected(args) as (_, _, conn):
            result = _compute(args.name, conn, args)
    print_result(result, args.json)
    return 0


def _reproject(args: argparse.Namespace) -> int:
    with _projected(args) as (_, projector, _):
        started = time.perf_counter()
        games = projector.rebuild()
        print(f"reprojected {games} games in {time.perf_counter() - started:.2f} s")
    return 0


def _export(args: argparse.Namespace) -> int:
    from replay.parquet import ExportError, export

    with _projected(args) as (_, _, conn):
        try:
            tables = export(conn, args.directory)
        except ExportError as error:
            print(f"warlog export-parquet: {error}", file=sys.stderr)
            return 1
        for table in tables:
            print(f"{table.table:<16} {table.rows:>10} rows  {table.path}")
    return 0


def _sql(args: argparse.Namespace) -> int:
    import duckdb

    path = _db(args)
    try:
        # read-only, and no file access beyond the database itself: no COPY TO, no read_csv('/etc/...'), no ATTACH
        conn = duckdb.connect(path, read_only=True, config={"enable_external_access": False})
    except duckdb.Error as error:
        from api.database import lock_message

        print(f"warlog sql: {lock_message(path, error) or f'cannot open {path} read-only: {error}'}", file=sys.stderr)
        return 1
    try:
        relation = conn.execute(args.query)
        columns = [d[0] for d in relation.description or []]
        rows = relation.fetchall() if columns else []
    except duckdb.Error as error:
        message = str(error)
        if "read-only" in message or "disabled by configuration" in message:
            print(f"warlog sql: refused: queries are read-only ({message})", file=sys.stderr)
        else:
            print(f"warlog sql: {message}", file=sys.stderr)
        return 2
    finally:
        conn.close()
    records = [dict(zip(columns, row, strict=True)) for row in rows]
    if args.json:
        sys.stdout.write(msgspec.json.encode(records, enc_hook=str).decode() + "\n")
    else:
        print_table(records)
    return 0


def _add_db(parser: argparse.ArgumentParser) -> None:
    from api.database import DB_HELP

    parser.add_argument("--db", default=None, help=DB_HELP)


def register(sub: argparse._SubParsersAction) -> None:
    stats = sub.add_parser(
        "stats",
        help="standard statistics (win rates, matchups, cards, ratings, ...)",
        description="Print a standard statistic over finished games (docs/statistics.md).",
    )
    stats.add_argument("name", choices=NAMES, metavar="NAME", help=f"the statistic: {', '.join(NAMES)}")
    _add_db(stats)
    stats.add_argument("--system", default="lords-of-war", help="game system (default lords-of-war)")
    stats.add_argument("--from", dest="date_from", type=date.fromisoformat, help="first day (YYYY-MM-DD)")
    stats.add_argument("--to", dest="date_to", type=date.fromisoformat, help="last day (YYYY-MM-DD), inclusive")
    stats.add_argument("--tournament", help="only the games of this tournament (its id)")
    stats.add_argument("--army", help="faction or army name, e.g. orcs")
    stats.add_argument("--variant", help="standard, intermediate, unbounded, targets-K-C (joined by '+')")
    stats.add_argument("--rules-version", help="e.g. lords-of-war/1")
    stats.add_argument("--min-games", type=int, default=0, help="leave out groups with fewer games")
    stats.add_argument("--card", help="heatmap: one card id")
    stats.add_argument("--owner-view", action="store_true", help="heatmap: squares from the placing player's edge")
    stats.add_argument("--include-challenge", action="store_true", help="heatmap: count challenge placements")
    stats.add_argument("--player", help="rating-history, head-to-head: a player's name")
    stats.add_argument("--opponent", help="head-to-head: the other player's name")
    stats.add_argument("--limit", type=int, default=None, help="ratings: top N")
    stats.add_argument("--json", action="store_true", help="print the typed result as JSON")
    stats.set_defaults(func=_stats, through_server=True)

    query = sub.add_parser(
        "sql",
        help="run a read-only SQL query",
        description="Run an ad-hoc query on a read-only connection (writes and file access are refused). "
        "Tables: events, games, proj_games, proj_players, proj_placements, proj_kills, proj_shots.",
    )
    query.add_argument("query", help="one SQL statement (DuckDB's dialect), e.g. \"SELECT count(*) FROM games\"")
    _add_db(query)
    query.add_argument("--json", action="store_true", help="rows as a JSON array of objects")
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
    reproject.set_defaults(func=_reproject)
