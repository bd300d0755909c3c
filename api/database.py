"""Which database a command works on, the same way for every command (standard library only: imported by the
command modules when the parser is built)."""

from __future__ import annotations

import os
import re
from pathlib import Path

DEFAULT_DB = "warlog.duckdb"
DEFAULT_STATS_DB = "warlog-stats.duckdb"  # with PostgreSQL: where the statistics are published (replay/analytics)
DB_HELP = (f"DuckDB file, or a postgresql://user:password@host/db URL (default: $WARLOG_DB, else "
           f"./{DEFAULT_DB})")


class CliError(Exception):
    """A failure the command line reports in one sentence; ``status`` is the exit status (1, or 2 for usage)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def database(flag: str | None) -> str:
    """``--db``, else ``WARLOG_DB``, else ``./warlog.duckdb``."""
    return flag or os.environ.get("WARLOG_DB") or DEFAULT_DB


def is_file(db: str) -> bool:
    """True for a database file path (not ``:memory:``, not a URL)."""
    return db != ":memory:" and "://" not in db


def require_database(db: str) -> None:
    """A command that reads must not create an empty database where there is none."""
    if is_file(db) and not Path(db).exists():
        raise CliError(
            f"there is no database at {db}: give one with --db or WARLOG_DB "
            "(`warlog demo`, `warlog import` and `warlog serve` create one)"
        )


_PID = re.compile(r"\(PID (\d+)\)")


def lock_message(db: str, error: BaseException) -> str | None:
    """The sentence for DuckDB's "Could not set lock on file" (another process has the file open), else None."""
    text = str(error)
    if "Could not set lock" not in text and "Conflicting lock" not in text:
        return None
    match = _PID.search(text)
    who = f"another process (pid {match.group(1)})" if match else "another process"
    return f"the database {db} is in use by {who}: wait for it to finish or stop it, then try again"
