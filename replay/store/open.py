"""Which store a database name opens: a ``postgresql://`` (or ``postgres://``) URL opens the PostgreSQL store,
anything else is a DuckDB file path (or ``:memory:``). The same for every command and the server (issue 19)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.store.base import Clock, EventStore, utc_now


def is_postgres_url(db: str | Path) -> bool:
    return str(db).startswith(("postgresql://", "postgres://"))


def open_store(
    db: str | Path,
    clock: Clock = utc_now,
    memory_limit: str | None = None,
    statement_timeout_ms: int | None = None,
    pool_size: int | None = None,
) -> EventStore:
    """The store of ``db``: ``memory_limit`` is DuckDB's, the other two PostgreSQL's (None: the defaults)."""
    if not is_postgres_url(db):
        from replay.store.duckdb_store import DuckDBEventStore

        return DuckDBEventStore(db, clock=clock, memory_limit=memory_limit)
    try:
        from replay.store.postgres_store import PostgresEventStore
    except ImportError as error:
        raise RuntimeError(
            f"a PostgreSQL database needs psycopg 3 ({error}): pip install 'warlog[pg]'"
        ) from None
    options: dict[str, Any] = {}
    if statement_timeout_ms is not None:
        options["statement_timeout_ms"] = statement_timeout_ms
    if pool_size is not None:
        options["pool_size"] = pool_size
    return PostgresEventStore(str(db), clock=clock, **options)
