"""Parquet export: the event log, the game records and every projection, partitioned by system and month.

``export(conn, directory)`` writes ``DIR/<table>/system=<system>/month=<YYYY-MM>/data_0.parquet`` (Hive-style
partitions, what DuckDB, pandas/pyarrow and Spark read as they are) for the tables in ``TABLES`` and each registered
system's own (``Analytics.exports``). The month is the month the game started (``games.created_at``), so all rows
of a game land in one partition. The queries are ``replay/sql/parquet_*.sql`` (a system's: its SQL folder's); the
directory is handed to DuckDB's Parquet writer (``COPY ... TO ... (FORMAT PARQUET, PARTITION_BY (system, month))``
under the hood), never spliced into SQL text.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import msgspec

from replay.store.sql import sql
from replay.systems import plugins

TABLES = ("events", "games", "proj_games", "proj_seats", "proj_opponents")  # the core's; then each system's
PARTITIONS = ["system", "month"]


class ExportedTable(msgspec.Struct, frozen=True):
    table: str
    rows: int
    path: str


class ExportError(Exception):
    """The export could not write to its directory; ``str()`` is one sentence for a person."""


def export(conn: duckdb.DuckDBPyConnection, directory: str | Path) -> list[ExportedTable]:
    """Write every table of ``TABLES`` and the systems' under ``directory`` (replacing an earlier export of the same
    tables).
    ``ExportError`` when the directory cannot be made or written."""
    root = Path(directory)
    if root.exists() and not root.is_dir():
        raise ExportError(f"{str(root)!r} is a file, not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ExportError(f"cannot make the folder {str(root)!r}: {error.strerror or error}") from None
    queries = [(table, sql(f"parquet_{table}")) for table in TABLES]
    for plugin in plugins():
        if plugin.analytics is not None:
            queries += [(table, plugin.analytics.sql(f"parquet_{table}")) for table in plugin.analytics.exports]
    out = []
    for table, query in queries:
        relation = conn.sql(query)
        rows = relation.aggregate("count(*)").fetchall()[0][0]
        target = root / table
        if rows:
            try:
                relation.write_parquet(str(target), partition_by=PARTITIONS, overwrite=True)
            except (duckdb.IOException, duckdb.PermissionException, OSError) as error:
                first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                raise ExportError(f"cannot write {str(target)!r}: {first}") from None
        out.append(ExportedTable(table, rows, str(target)))
    return out
